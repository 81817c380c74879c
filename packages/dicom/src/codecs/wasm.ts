// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the codecs ship no types; programs importing this package (the server) need these declarations too
/// <reference path="./wasm-modules.d.ts" />
/**
 * The Cornerstone WASM codecs, loaded on first use and then shared by every decode. Each package
 * is an Emscripten factory that finds its .wasm next to its own .js (`scriptDirectory`), and stays
 * an external npm import in the bundled server (apps/server/build.mjs), so the file is found in
 * node_modules at run time without copying assets.
 *
 * One decoder instance per codec is enough: `decode()` is synchronous, and callers copy the
 * output out of the WASM heap before they next await.
 */
import type { WasmDecoder, WasmFrameInfo } from '@cornerstonejs/codec-wasm-common';
import type { JpegLsDecoder } from '@cornerstonejs/codec-charls/decodewasmjs';
import type { HtJ2kDecoder } from '@cornerstonejs/codec-openjph/wasmjs';
import type { JpegEncoder } from '@cornerstonejs/codec-libjpeg-turbo-8bit/wasmjs';

// Emscripten prints codec logs (OpenJPEG's "[INFO] …" lines) to stdout by default: keep them
// out of the server's log stream. A new object per factory: Emscripten makes it the module object
// and adds the codec's exports to it, so a shared one would mix two codecs' bindings.
const quiet = () => ({ print: () => undefined, printErr: () => undefined });

/** `load` run on first use and shared; a failed load is retried on the next call. `reset()`: load anew. */
function once<T>(load: () => Promise<T>): (() => Promise<T>) & { reset(): void } {
  let pending: Promise<T> | null = null;
  const get = () =>
    (pending ??= load().catch((error: unknown) => {
      pending = null;
      throw error;
    }));
  return Object.assign(get, { reset: () => void (pending = null) });
}

export const loadJpegLs = once(async (): Promise<JpegLsDecoder> => {
  const { default: factory } = await import('@cornerstonejs/codec-charls/decodewasmjs');
  return new (await factory(quiet())).JpegLSDecoder();
});

export const loadJ2k = once(async (): Promise<WasmDecoder> => {
  const { default: factory } = await import('@cornerstonejs/codec-openjpeg/decodewasmjs');
  return new (await factory(quiet())).J2KDecoder();
});

export const loadHtJ2k = once(async () => {
  const { default: factory } = await import('@cornerstonejs/codec-openjph/wasmjs');
  const codec = await factory(quiet());
  return { create: (): HtJ2kDecoder => new codec.HTJ2KDecoder() };
});

export const loadJpeg8 = once(async (): Promise<WasmDecoder> => {
  const { default: factory } = await import('@cornerstonejs/codec-libjpeg-turbo-8bit/decodewasmjs');
  return new (await factory(quiet())).JPEGDecoder();
});

/**
 * libjpeg-turbo's full build: its encoder (the decoder above is the decode-only build's). After a
 * failed encode its heap is not trusted: `loadJpegEncoder.reset()` makes the next call load anew.
 */
export const loadJpegEncoder = once(async (): Promise<JpegEncoder> => {
  const { default: factory } = await import('@cornerstonejs/codec-libjpeg-turbo-8bit/wasmjs');
  return new (await factory(quiet())).JPEGEncoder();
});

/**
 * The codec modules above (import specifiers): a one-file bundle of a program that decodes (the
 * packaged router, apps/router/packaging/build.ts) ships each one's .wasm, which the module reads
 * from the file of the same name beside itself.
 */
export const WASM_CODEC_MODULES = [
  '@cornerstonejs/codec-charls/decodewasmjs',
  '@cornerstonejs/codec-openjpeg/decodewasmjs',
  '@cornerstonejs/codec-openjph/wasmjs',
  '@cornerstonejs/codec-libjpeg-turbo-8bit/decodewasmjs',
  '@cornerstonejs/codec-libjpeg-turbo-8bit/wasmjs',
] as const;

/** Loads every WASM codec (a program's self-test: each .wasm is found and compiles on this Node). */
export async function loadWasmCodecs(): Promise<void> {
  await Promise.all([loadJpegLs(), loadJ2k(), loadHtJ2k(), loadJpeg8(), loadJpegEncoder()]);
}

/** The decoded samples copied out of the WASM heap, with what the codec says they are. */
export interface WasmOutput {
  info: WasmFrameInfo;
  bytes: Uint8Array;
}

/** Feeds one frame to a decoder and copies its output (the heap view dies on the next call). */
export function runDecoder(decoder: WasmDecoder, frame: Uint8Array, decode: () => void): WasmOutput {
  decoder.getEncodedBuffer(frame.length).set(frame);
  decode();
  const info = decoder.getFrameInfo();
  return { info: { ...info }, bytes: decoder.getDecodedBuffer().slice() };
}
