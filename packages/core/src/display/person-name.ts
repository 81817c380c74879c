/**
 * A DICOM person name (PN, PS3.5 §6.2) as people read it, for every screen and document that shows
 * a patient, referring physician or other person name. The stored value stays raw (search, C-FIND
 * and DICOMweb answer it as stored); only what is shown goes through here.
 *
 * - Up to three component groups `alphabetic=ideographic=phonetic`, each of up to five components
 *   `family^given^middle^prefix^suffix`.
 * - Reading order "Prefix Given Middle Family, Suffix" (PS3.5's own example reads
 *   "Rev. John Robert Quincy Adams, B.A. M.Div."): names typed into Create Study and Edit details
 *   ("Asha Sharma") are in that order too, so one list never mixes two orders.
 * - A group written in Han, Hangul or kana keeps its family-first order, and Han or Hangul parts are
 *   joined without a space (洪吉洞, 홍길동), as those names are written.
 * - The first non-empty group is the name; the others follow in parentheses: "Gildong Hong (洪吉洞, 홍길동)".
 * - Empty components never show; `^^^^` is empty; a value with no `^` or `=` is shown as typed.
 */
export function formatPersonName(value: string | null | undefined): string {
  if (!value) return '';
  return value.split('\\').map(formatOne).filter(Boolean).join('; ');
}

/**
 * The one name a form field takes from a DICOM PN (Create Study fills the patient's name from the
 * files' headers): the first non-empty component group in the same reading order as
 * `formatPersonName`, without the other groups in parentheses.
 */
export function formPersonName(value: string | null | undefined): string {
  if (!value) return '';
  const first = value.split('\\')[0] ?? '';
  if (!/[\^=]/.test(first)) return first.trim();
  for (const group of first.split('=')) {
    const text = formatGroup(group);
    if (text) return text;
  }
  return '';
}

const CJK = /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const CLOSE_START = /^[\p{Script=Han}\p{Script=Hangul}]/u;
const CLOSE_END = /[\p{Script=Han}\p{Script=Hangul}]$/u;

function formatOne(value: string): string {
  if (!/[\^=]/.test(value)) return value.trim();
  const groups: string[] = [];
  for (const group of value.split('=')) {
    const text = formatGroup(group);
    if (text && !groups.includes(text)) groups.push(text);
  }
  const [first = '', ...rest] = groups;
  return rest.length > 0 ? `${first} (${rest.join(', ')})` : first;
}

function formatGroup(group: string): string {
  const [family = '', given = '', middle = '', prefix = '', suffix = ''] = group
    .split('^')
    .map((part) => part.trim());
  if (CJK.test(group)) return joinNative([prefix, family, given, middle, suffix]);
  const name = [prefix, given, middle, family].filter(Boolean).join(' ');
  return suffix ? (name ? `${name}, ${suffix}` : suffix) : name;
}

/** Family-first parts; no space between two Han or Hangul parts. */
function joinNative(parts: string[]): string {
  let out = '';
  for (const part of parts) {
    if (!part) continue;
    out += out && !(CLOSE_END.test(out) && CLOSE_START.test(part)) ? ` ${part}` : part;
  }
  return out;
}

/**
 * A DICOM description (LO/SH, e.g. Study Description) as shown: some vendors separate its parts with
 * `^` (Siemens 'Program^Protocol': 'Rorden^Rorden_Prisma'), which is no person name and keeps its
 * order; the parts are shown with a space, empty ones dropped. Text without `^` is shown as it is.
 */
export function formatDicomText(value: string | null | undefined): string {
  if (!value) return '';
  return value
    .split('^')
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ');
}
