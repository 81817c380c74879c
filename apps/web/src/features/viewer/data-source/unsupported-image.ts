import { unsupportedSyntaxText } from '@radflow/core';
import { isNativeFrameSyntax, nativePhotometricProblem } from '@radflow/dicom/native-frame';
import { textOf } from './dicom-json';
import { type TLoadedSeries, unsupportedSyntaxOf } from './dicomweb-source';

const PHOTOMETRIC_INTERPRETATION = '00280004';

/**
 * The 'unsupported' placeholder's text for a SOP instance of the series, or null when the browser
 * draws it: a stored syntax it cannot decode, or native pixels labelled with a photometric
 * interpretation only compressed streams carry, or a retired one (engine/own-decode.ts refuses
 * those frames rather than draw wrong pixels). Apart from dicomweb-source.ts so the first image's
 * chunk, which reads the series through it, does not carry the pixel-layout rules.
 */
export function unsupportedImageText(series: TLoadedSeries, sopInstanceUid: string): string | null {
  const syntax = unsupportedSyntaxOf(series, sopInstanceUid);
  if (syntax !== null) return unsupportedSyntaxText(syntax);
  const stored = series.syntaxOf.get(sopInstanceUid) ?? '';
  const instance = series.stack.find((i) => i.sopInstanceUid === sopInstanceUid);
  if (!instance || !isNativeFrameSyntax(stored)) return null;
  const problem = nativePhotometricProblem(textOf(instance.metadata, PHOTOMETRIC_INTERPRETATION));
  return problem ? `Unsupported image: ${problem}. This image cannot be shown in the browser.` : null;
}
