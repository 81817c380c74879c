import { describe, expect, it } from 'vitest';
import { priorWarning } from './prior-warning';

describe('priorWarning', () => {
  const prior = { patientName: 'DOE^JANET', patientBirthDate: '19810101' };
  it('names what differs, with the prior value', () => {
    expect(priorWarning({ ...prior, differs: [] })).toBeNull();
    expect(priorWarning({ ...prior, differs: ['patientName'] })).toBe(
      'Same patient ID, different name JANET DOE: check it is the same patient',
    );
    expect(priorWarning({ ...prior, differs: ['patientName', 'patientBirthDate'] })).toBe(
      'Same patient ID, different name JANET DOE and birth date 1981-01-01: check it is the same patient',
    );
  });
});
