/** xhr2 ships no types: it is the XMLHttpRequest class, for libraries that need one in Node. */
declare module 'xhr2' {
  const XMLHttpRequest: typeof globalThis.XMLHttpRequest;
  export default XMLHttpRequest;
}
