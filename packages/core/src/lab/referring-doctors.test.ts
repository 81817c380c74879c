import { describe, expect, it } from 'vitest';
import {
  REFERRING_DOCTOR_MESSAGES as M,
  ZReferringDoctorInput,
  ZReferringDoctorSearch,
  ZReferringDoctorUpdate,
  departmentChangeProblem,
  departmentOfOption,
  referringDoctorStatusConfirm,
} from './referring-doctors.js';

const firstMessage = (
  schema: typeof ZReferringDoctorInput | typeof ZReferringDoctorUpdate,
  input: unknown,
) => {
  const parsed = schema.safeParse(input);
  return parsed.success ? null : parsed.error.issues[0]?.message;
};

describe('referring doctor rules (spec-lab §4, §5)', () => {
  it.each([
    ['None', null],
    ['none', null],
    ['', null],
    [null, null],
    [undefined, null],
    [' cardiology ', 'CARDIOLOGY'],
  ])('department option %j is %j', (option, department) =>
    expect(departmentOfOption(option)).toBe(department),
  );

  it.each([
    [null, null, null],
    [null, 'CARDIOLOGY', null],
    ['CARDIOLOGY', 'CARDIOLOGY', null],
    ['CARDIOLOGY', 'ORTHO', M.departmentFixed],
    ['CARDIOLOGY', null, M.departmentFixed],
  ])('from %j to %j: %j', (before, after, problem) =>
    expect(departmentChangeProblem(before, after)).toBe(problem),
  );

  it('the status confirmation names the target state', () => {
    expect(referringDoctorStatusConfirm(true)).toBe('Are you sure you want to change the status to Active?');
    expect(referringDoctorStatusConfirm(false)).toBe(
      'Are you sure you want to change the status to Inactive?',
    );
  });

  it('a new doctor is active: false is refused with the spec message, absent means true', () => {
    expect(firstMessage(ZReferringDoctorInput, { name: 'Dr Rao', active: false })).toBe(
      'Refering doctor cannot be deactivated during creation.',
    );
    expect(ZReferringDoctorInput.parse({ name: ' Dr Rao ', department: 'None' })).toEqual({
      name: 'Dr Rao',
      mobileNumber: null,
      department: null,
      active: true,
    });
  });

  it.each([
    [{ name: '' }, M.nameRequired],
    [{ name: '  ' }, M.nameRequired],
    [{}, M.nameRequired],
    [{ name: 'Dr Rao', mobileNumber: '12345' }, M.mobileInvalid],
  ])('%j is refused: %s', (input, message) =>
    expect(firstMessage(ZReferringDoctorInput, input)).toBe(message),
  );

  it('an update may deactivate; it names the id and version', () => {
    expect(
      firstMessage(ZReferringDoctorUpdate, { id: 1, version: 2, name: 'Dr Rao', active: false }),
    ).toBeNull();
    expect(firstMessage(ZReferringDoctorUpdate, { id: 1, name: 'Dr Rao', active: false })).not.toBeNull();
  });

  it('the search: departments upper-cased, criteria defaulted', () => {
    expect(
      ZReferringDoctorSearch.parse({ mobileOrName: ' rao ', departments: ['ortho'], active: true }),
    ).toEqual({
      mobileOrName: 'rao',
      departments: ['ORTHO'],
      active: true,
      criteria: { page: 0, size: 20, orderingCriteria: 'name', sortOrder: 'ASC' },
    });
  });
});
