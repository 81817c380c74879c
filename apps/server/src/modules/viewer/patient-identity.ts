import type { TViewerPriorDifference } from '@radflow/core';

/**
 * Whether two studies filed under one Patient ID and issuer name the same person (issue 21 §8):
 * what differs, for the priors' warning. A field is compared only when both sides have it — an
 * unknown value is not a difference — and in a form that ignores how the name was written.
 */

/**
 * A DICOM PN's component groups (alphabetic, ideographic, phonetic), each as its components
 * upper-cased with inner spaces collapsed and trailing empty components dropped: `doe^jane^^^`
 * and `DOE^JANE` are one name.
 */
function nameGroups(pn: string): string[] {
  return pn.split('=').map((group) =>
    group
      .split('^')
      .map((component) => component.trim().replace(/\s+/g, ' ').toUpperCase())
      .join('^')
      .replace(/\^+$/, ''),
  );
}

/**
 * Same name when the first component group both sides have agrees (alphabetic, else ideographic,
 * else phonetic): `HONG^GILDONG=洪^吉洞` and `HONG^GILDONG` are one name.
 */
export function sameName(a: string, b: string): boolean {
  const ga = nameGroups(a);
  const gb = nameGroups(b);
  for (let i = 0; i < 3; i++) {
    const x = ga[i] ?? '';
    const y = gb[i] ?? '';
    if (x !== '' && y !== '') return x === y;
  }
  return true;
}

/** DA as digits (a legacy `1980.01.01` is `19800101`); '' when unknown. */
const dateDigits = (da: string) => da.replace(/\D/g, '');

export function patientDifferences(
  current: { patientName: string; patientBirthDate: string },
  prior: { patientName: string; patientBirthDate: string },
): TViewerPriorDifference[] {
  const differs: TViewerPriorDifference[] = [];
  if (!sameName(current.patientName, prior.patientName)) differs.push('patientName');
  const a = dateDigits(current.patientBirthDate);
  const b = dateDigits(prior.patientBirthDate);
  if (a !== '' && b !== '' && a !== b) differs.push('patientBirthDate');
  return differs;
}
