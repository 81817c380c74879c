export {
  decodeFrame,
  canDecodeTransferSyntax,
  type DecodeFrameInput,
  type DecodedFrame,
} from './decode-frame.js';
export { FrameDecodeError, type FrameDecodeErrorCode } from './errors.js';
export { decodeRle } from './rle.js';
export {
  toDisplayImage,
  expandSegmentedLut,
  type DisplayImage,
  type DisplayMetadata,
  type DisplayWindow,
  type ReadElement,
} from './display-image.js';
export { WASM_CODEC_MODULES, loadWasmCodecs } from './wasm.js';
export { type RasterImage, type TJpeg, decodeJpegImage, encodeJpeg } from './jpeg-image.js';
