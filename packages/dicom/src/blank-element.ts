import dicomParser from 'dicom-parser';

const DEFLATED = '1.2.840.10008.1.2.1.99';

/**
 * A copy of a Part 10 file whose top-level text element `tag` (e.g. 'x00080080' Institution Name)
 * is all spaces: the same length, so nothing else in the file moves and no re-encoding can change
 * another byte (an all-spaces LO is an empty value, PS3.5 §6.2). The file itself when the element is
 * absent or empty, the file cannot be read, or it is deflated (offsets would be of the inflated
 * bytes). Elements inside sequences are left alone.
 */
export function blankTopLevelText(bytes: Uint8Array, tag: string): Uint8Array {
  let element: { dataOffset?: number; length: number } | undefined;
  try {
    const dataSet = dicomParser.parseDicom(bytes, { untilTag: 'x7fe00010' });
    if (dataSet.string('x00020010') === DEFLATED) return bytes;
    element = dataSet.elements[tag];
  } catch {
    return bytes;
  }
  if (!element || element.dataOffset === undefined || element.length <= 0) return bytes;
  if (element.length === 0xffffffff || element.dataOffset + element.length > bytes.length) return bytes;
  const copy = Uint8Array.from(bytes);
  copy.fill(0x20, element.dataOffset, element.dataOffset + element.length);
  return copy;
}
