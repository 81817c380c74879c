/** How values are shown to people (issue 21 §1): person names and times, one rule each for web and server. */
export * from './person-name.js';
export * from './display-time.js';
