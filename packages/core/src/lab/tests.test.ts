import { describe, expect, it } from 'vitest';
import {
  LAB_TEST_MESSAGES as M,
  ZLabTestCreate,
  ZLabTestUpdate,
  labTestContextProblem,
  labTestModalities,
  packageMembersProblem,
} from './tests.js';

const good = { testCode: 'CT01', testName: 'CT Head', testType: 'NORMAL', labModality: 'CT', price: 1500 };
const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? null : r.error!.issues[0]!.message;

describe('create a test (spec-lab §5 Test)', () => {
  it('defaults the department to RADIOLOGY, active true, no members', () => {
    expect(ZLabTestCreate.parse(good)).toMatchObject({
      department: 'RADIOLOGY',
      active: true,
      labTestsIds: [],
      attributes: {},
    });
  });

  it.each([
    ['testType', undefined, M.typeRequired],
    ['labModality', undefined, M.modalityRequired],
    ['testCode', '  ', M.codeRequired],
    ['testName', undefined, M.nameRequired],
    ['price', 10.005, M.priceInvalid],
    ['price', -1, M.priceInvalid],
    ['active', false, M.cannotDeactivateOnCreate],
  ])('%s = %s: %s', (field, value, message) => {
    expect(firstMessage(ZLabTestCreate.safeParse({ ...good, [field]: value }))).toBe(message);
  });

  it('uppercases and trims the department, trims code and name', () => {
    expect(ZLabTestCreate.parse({ ...good, department: ' cardio ', testCode: ' x1 ' })).toMatchObject({
      department: 'CARDIO',
      testCode: 'x1',
    });
  });

  it('an update may deactivate and needs id and version', () => {
    expect(ZLabTestUpdate.safeParse({ ...good, active: false, id: 3, version: 1 }).success).toBe(true);
    expect(ZLabTestUpdate.safeParse({ ...good, active: false }).success).toBe(false);
  });
});

describe('context rules', () => {
  const ctx = { showExtraModalityType: false, labDepartmentList: ['CARDIO'] };
  it.each([
    ['CT', 'RADIOLOGY', false, null],
    ['CT', 'CARDIO', false, null],
    ['CT', 'ORTHO', false, M.departmentUnknown],
    ['NM', 'RADIOLOGY', false, M.modalityNotOffered],
    ['NM', 'RADIOLOGY', true, null],
    ['CDUS', 'RADIOLOGY', true, null],
  ])('%s in %s (extra %s): %s', (labModality, department, extra, message) => {
    expect(
      labTestContextProblem({ labModality, department }, { ...ctx, showExtraModalityType: extra })?.message ??
        null,
    ).toBe(message);
  });

  it('the extra modalities only with the switch', () => {
    expect(labTestModalities(false)).toEqual(['CT', 'MR', 'DX', 'US', 'MG', 'XA', 'IR']);
    expect(labTestModalities(true)).toEqual(['CT', 'MR', 'DX', 'US', 'MG', 'XA', 'IR', 'NM', 'RFDX', 'CDUS']);
  });
});

describe('package members', () => {
  const found = [
    { id: 1, testType: 'NORMAL' as const },
    { id: 2, testType: 'NORMAL' as const },
    { id: 9, testType: 'PACKAGE' as const },
  ];
  it.each([
    ['a normal test without members', { testType: 'NORMAL' as const, labTestsIds: [] }, null],
    ['a normal test with members', { testType: 'NORMAL' as const, labTestsIds: [1] }, M.normalHasNoMembers],
    ['a package of two normal tests', { testType: 'PACKAGE' as const, labTestsIds: [1, 2] }, null],
    ['an empty package', { testType: 'PACKAGE' as const, labTestsIds: [] }, M.packageNeedsMembers],
    [
      'a package holding a package',
      { testType: 'PACKAGE' as const, labTestsIds: [1, 9] },
      M.packageMemberNotNormal,
    ],
    [
      'a test of another lab (not found)',
      { testType: 'PACKAGE' as const, labTestsIds: [1, 77] },
      M.packageMemberNotNormal,
    ],
    [
      'a package holding itself',
      { id: 9, testType: 'PACKAGE' as const, labTestsIds: [9] },
      M.packageContainsItself,
    ],
  ])('%s', (_name, test, message) => {
    expect(packageMembersProblem(test, found)).toBe(message);
  });
});

describe('context rules on an edit', () => {
  const ctx = { showExtraModalityType: false, labDepartmentList: ['CARDIO'] };
  const before = { labModality: 'NM', department: 'RADIOLOGY' };
  it.each([
    [
      'an unchanged modality the switch no longer offers',
      { labModality: 'NM', department: 'RADIOLOGY' },
      null,
    ],
    [
      'a new modality the switch does not offer',
      { labModality: 'RFDX', department: 'RADIOLOGY' },
      M.modalityNotOffered,
    ],
    [
      'a new unknown department beside a kept modality',
      { labModality: 'NM', department: 'ORTHO' },
      M.departmentUnknown,
    ],
    ['a new known department beside a kept modality', { labModality: 'NM', department: 'CARDIO' }, null],
  ])('%s', (_name, test, message) => {
    expect(labTestContextProblem(test, ctx, before)?.message ?? null).toBe(message);
  });
});
