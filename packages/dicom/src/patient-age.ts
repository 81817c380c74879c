/** DA (YYYYMMDD) to a UTC date, or null when it is not a real date. */
function parseDicomDate(value: string | null | undefined): Date | null {
  const m = /^(\d{4})\.?(\d{2})\.?(\d{2})$/.exec(value?.trim() ?? '');
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d
    ? date
    : null;
}

const pad3 = (n: number) => String(n).padStart(3, '0');

/**
 * Patient's Age (0010,1010) in the AS form of PS3.5 Table 6.2-1 ('045Y', '011M', '003W', '006D'),
 * computed from Patient's Birth Date at the Study Date when the instance does not carry it. Null
 * when either date is missing or the birth date is after the study date.
 */
export function computePatientAge(birthDate: string | null, studyDate: string | null): string | null {
  const born = parseDicomDate(birthDate);
  const at = parseDicomDate(studyDate);
  if (!born || !at || born > at) return null;
  let months = (at.getUTCFullYear() - born.getUTCFullYear()) * 12 + (at.getUTCMonth() - born.getUTCMonth());
  if (at.getUTCDate() < born.getUTCDate()) months -= 1;
  const years = Math.floor(months / 12);
  if (years >= 2) return `${pad3(Math.min(years, 999))}Y`;
  if (months >= 1) return `${pad3(months)}M`;
  const days = Math.round((at.getTime() - born.getTime()) / 86_400_000);
  return days >= 7 ? `${pad3(Math.floor(days / 7))}W` : `${pad3(days)}D`;
}

/**
 * The age to show for an instance: its Patient's Age (0010,1010) when it carries one, else the age
 * computed from its birth date at its study date (computePatientAge); null when neither is known.
 * The cloud's ingest and the router's list both show this.
 */
export function patientAgeOf(index: {
  readonly patientAge: string | null;
  readonly patientBirthDate: string | null;
  readonly studyDate: string | null;
}): string | null {
  const carried = index.patientAge?.replace(/\0/g, '').trim();
  return carried || computePatientAge(index.patientBirthDate, index.studyDate);
}
