// Typings for the parts of the Cornerstone WASM codecs (Emscripten CommonJS factories, no
// declarations shipped) that codecs/wasm.ts uses.

declare module '@cornerstonejs/codec-wasm-common' {
  /** A view into the WASM heap: valid until the next call into the codec. */
  export interface WasmFrameInfo {
    width: number;
    height: number;
    bitsPerSample: number;
    componentCount: number;
    isSigned?: boolean;
  }
  export interface WasmDecoder {
    getEncodedBuffer(length: number): Uint8Array;
    getDecodedBuffer(): Uint8Array;
    getFrameInfo(): WasmFrameInfo;
    decode(): void;
    delete(): void;
  }
  export interface WasmModule {
    HEAPU8: Uint8Array;
    getExceptionMessage?(pointer: number): string | [string, string];
  }
  export type WasmFactory<M> = (options?: {
    locateFile?: (file: string) => string;
    print?: (text: string) => void;
    printErr?: (text: string) => void;
  }) => Promise<M>;
}

declare module '@cornerstonejs/codec-charls/decodewasmjs' {
  import type { WasmDecoder, WasmFactory, WasmModule } from '@cornerstonejs/codec-wasm-common';
  export interface JpegLsDecoder extends WasmDecoder {
    /** 0 = planes one after the other, 1 = line, 2 = sample interleaved. */
    getInterleaveMode(): number;
    getNearLossless(): number;
  }
  const factory: WasmFactory<WasmModule & { JpegLSDecoder: new () => JpegLsDecoder }>;
  export default factory;
}

declare module '@cornerstonejs/codec-openjpeg/decodewasmjs' {
  import type { WasmDecoder, WasmFactory, WasmModule } from '@cornerstonejs/codec-wasm-common';
  const factory: WasmFactory<WasmModule & { J2KDecoder: new () => WasmDecoder }>;
  export default factory;
}

declare module '@cornerstonejs/codec-openjph/wasmjs' {
  import type { WasmDecoder, WasmFactory, WasmModule } from '@cornerstonejs/codec-wasm-common';
  export interface HtJ2kDecoder extends WasmDecoder {
    decodeSubResolution(level: number): void;
  }
  const factory: WasmFactory<WasmModule & { HTJ2KDecoder: new () => HtJ2kDecoder }>;
  export default factory;
}

declare module '@cornerstonejs/codec-libjpeg-turbo-8bit/decodewasmjs' {
  import type { WasmDecoder, WasmFactory, WasmModule } from '@cornerstonejs/codec-wasm-common';
  const factory: WasmFactory<WasmModule & { JPEGDecoder: new () => WasmDecoder }>;
  export default factory;
}

declare module '@cornerstonejs/codec-libjpeg-turbo-8bit/wasmjs' {
  import type { WasmFactory, WasmFrameInfo, WasmModule } from '@cornerstonejs/codec-wasm-common';
  export interface JpegEncoder {
    /** The input pixels' place in the WASM heap, sized for `info` (8-bit, interleaved). */
    getDecodedBuffer(info: WasmFrameInfo): Uint8Array;
    /** 1-100. */
    setQuality(quality: number): void;
    /** 1 (the default): progressive; 0: baseline. */
    setProgressive(progressive: number): void;
    encode(): void;
    getEncodedBuffer(): Uint8Array;
    delete(): void;
  }
  const factory: WasmFactory<WasmModule & { JPEGEncoder: new () => JpegEncoder }>;
  export default factory;
}
