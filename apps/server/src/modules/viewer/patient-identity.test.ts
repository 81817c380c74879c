import { describe, expect, it } from 'vitest';
import { patientDifferences, sameName } from './patient-identity.js';

describe('sameName', () => {
  it('ignores case, spacing and empty trailing components', () => {
    expect(sameName('doe^jane^^^', 'DOE^JANE')).toBe(true);
    expect(sameName(' DOE ^ JANE ', 'DOE^JANE')).toBe(true);
    expect(sameName('DOE^JANE', 'DOE^JANET')).toBe(false);
    expect(sameName('DOE^JANE^A', 'DOE^JANE')).toBe(false);
  });

  it('compares the first component group both names have', () => {
    expect(sameName('Hong^Gildong=洪^吉洞=홍^길동', 'HONG^GILDONG')).toBe(true);
    expect(sameName('=洪^吉洞', 'Hong^Gildong=洪^吉洞')).toBe(true);
    expect(sameName('=洪^吉洞', '=金^吉洞')).toBe(false);
  });

  it('an unknown name is not a difference', () => {
    expect(sameName('', 'DOE^JANE')).toBe(true);
    expect(sameName('^^^^', 'DOE^JANE')).toBe(true);
  });
});

describe('patientDifferences', () => {
  const jane = { patientName: 'DOE^JANE', patientBirthDate: '19800101' };
  it('names the fields that differ, and only when both sides are known', () => {
    expect(patientDifferences(jane, jane)).toEqual([]);
    expect(patientDifferences(jane, { ...jane, patientBirthDate: '1980.01.01' })).toEqual([]);
    expect(patientDifferences(jane, { ...jane, patientBirthDate: '' })).toEqual([]);
    expect(patientDifferences(jane, { patientName: 'ROE^RICHARD', patientBirthDate: '19600606' })).toEqual([
      'patientName',
      'patientBirthDate',
    ]);
  });
});
