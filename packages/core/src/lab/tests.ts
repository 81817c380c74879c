import { z } from 'zod';
import { ALL_LAB_MODALITIES, CREATE_STUDY_MODALITIES } from '../studies/upload-schemas.js';
import { DEFAULT_LAB_DEPARTMENT, LAB_LIMITS, LAB_TEST_TYPES, type TLabTestType } from './entities.js';
import { isRupeeAmount } from './money.js';

/**
 * The lab's test catalogue (spec-lab §3 "Lab test", §5 "Test", §8 messages): the rules the Create/Edit
 * Test dialog, the CSV upload and POST/PUT /api/lab/test share. Prices are rupees on the wire
 * (money.ts); the store keeps paise.
 */

/** Every message of the test screens, word for word where the spec gives one. */
export const LAB_TEST_MESSAGES = {
  typeRequired: 'Test type is required',
  modalityRequired: 'Modality is required',
  codeRequired: 'Test code is required',
  nameRequired: 'Test name is required',
  priceInvalid: 'Price must be an amount in rupees of 0 or more with at most two decimals',
  cannotDeactivateOnCreate: 'Lab test cannot be deactivated during creation.',
  typeNotEditable: 'The test type cannot be changed after creation',
  editWarning: 'The changes will only be reflected in the new bill',
  createConfirm: 'You are trying to create a new test. Do you wish to continue?',
  creating: 'Creating Test',
  updating: 'Updating Test',
  created: 'Test Created',
  updated: 'Test Updated',
  /** The active toggle's confirmations: what the new state means for billing. */
  deactivateConfirm:
    'Are you sure you want to change the status to Inactive? Billing with this test will not be possible.',
  activateConfirm:
    'Are you sure you want to change the status to Active? Billing with this test will be possible.',
  modalityNotOffered:
    'This modality is not offered: the extra modalities NM, RFDX and CDUS need showExtraModalityType',
  departmentUnknown: "The department is not one of the lab's departments",
  packageNeedsMembers: 'A package needs at least one test',
  normalHasNoMembers: 'Only a package has member tests',
  packageMemberNotNormal: 'A package can only contain normal tests of this lab',
  packageContainsItself: 'A package cannot contain itself',
  duplicateCode: (code: string) => `A test with the code ${code} already exists`,
  stale: 'This test was changed by someone else: reload it and try again',
  notFound: 'Lab test not found',
} as const;

/** The modalities a test may have: the seven, plus NM, RFDX, CDUS when the group's switch is on. */
export function labTestModalities(showExtraModalityType: boolean): readonly string[] {
  return showExtraModalityType ? ALL_LAB_MODALITIES : CREATE_STUDY_MODALITIES;
}

/** Whether a department may be named on a test: RADIOLOGY (the default) or one of the lab's departments. */
export function isLabTestDepartment(department: string, labDepartmentList: readonly string[]): boolean {
  return department === DEFAULT_LAB_DEPARTMENT || labDepartmentList.includes(department);
}

const trimmed = (message: string, max: number) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: `At most ${max} characters` });

const ZRupees = z
  .number({ error: LAB_TEST_MESSAGES.priceInvalid })
  .refine(isRupeeAmount, { error: LAB_TEST_MESSAGES.priceInvalid });

export const LAB_TEST_CODE_MAX = 64;
export const LAB_TEST_NAME_MAX = 200;
/** A package holds at most this many member tests. */
export const LAB_PACKAGE_MEMBERS_MAX = 100;

const testFields = {
  // In the spec's order (§5 "Type, modality, code, name required"): the first problem is named first.
  testType: z.enum(LAB_TEST_TYPES, { error: LAB_TEST_MESSAGES.typeRequired }),
  labModality: z.enum(ALL_LAB_MODALITIES, { error: LAB_TEST_MESSAGES.modalityRequired }),
  testCode: trimmed(LAB_TEST_MESSAGES.codeRequired, LAB_TEST_CODE_MAX),
  testName: trimmed(LAB_TEST_MESSAGES.nameRequired, LAB_TEST_NAME_MAX),
  /** Uppercased like the lab's department list (spec-lab §5 departments); RADIOLOGY when not sent. */
  department: z
    .string()
    .trim()
    .max(100)
    .transform((d) => d.toUpperCase())
    .optional()
    .transform((d) => (d ? d : DEFAULT_LAB_DEPARTMENT)),
  price: ZRupees,
  active: z.boolean().default(true),
  /** The test's own attribute choices (spec-lab §3 "attributes"): a JSON object, kept as given. */
  attributes: z.record(z.string(), z.unknown()).default({}),
  labTestsIds: z.array(z.number().int().positive()).max(LAB_PACKAGE_MEMBERS_MAX).default([]),
};

/** POST /api/lab/test. */
export const ZLabTestCreate = z
  .object(testFields)
  .superRefine((test, ctx) => {
    // spec-lab §4 "Test activation can be changed only on existing tests".
    if (!test.active) {
      ctx.addIssue({ code: 'custom', path: ['active'], message: LAB_TEST_MESSAGES.cannotDeactivateOnCreate });
    }
  })
  .meta({ id: 'LabTestCreate' });
export type TLabTestCreate = z.input<typeof ZLabTestCreate>;
export type TLabTestCreateParsed = z.output<typeof ZLabTestCreate>;

/** PUT /api/lab/test: the whole test with its id and the version it was read at. */
export const ZLabTestUpdate = z
  .object({ ...testFields, id: z.number().int().positive(), version: z.number().int().min(1) })
  .meta({ id: 'LabTestUpdate' });
export type TLabTestUpdate = z.input<typeof ZLabTestUpdate>;
export type TLabTestUpdateParsed = z.output<typeof ZLabTestUpdate>;

/** A test as the API answers it. */
export const ZLabTest = z
  .object({
    id: z.number().int(),
    testCode: z.string(),
    testName: z.string(),
    testType: z.enum(LAB_TEST_TYPES),
    labModality: z.enum(ALL_LAB_MODALITIES),
    department: z.string(),
    price: z.number(),
    active: z.boolean(),
    attributes: z.record(z.string(), z.unknown()),
    labTestsIds: z.array(z.number().int()),
    createdAt: z.string(),
    version: z.number().int(),
  })
  .meta({ id: 'LabTest' });
export type TLabTest = z.infer<typeof ZLabTest>;

/**
 * The rules that need the lab's context (the group switch, the department list): one home for the
 * dialog and the server. On an edit (`before` given) a field is checked only when it changes, so a
 * test made before the switch was turned off (or a department renamed) stays editable. Answers the
 * first problem, or null.
 */
export function labTestContextProblem(
  test: { labModality: string; department: string },
  ctx: { showExtraModalityType: boolean; labDepartmentList: readonly string[] },
  before?: { labModality: string; department: string },
): { field: string; message: string } | null {
  if (
    test.labModality !== before?.labModality &&
    !labTestModalities(ctx.showExtraModalityType).includes(test.labModality)
  ) {
    return { field: 'labModality', message: LAB_TEST_MESSAGES.modalityNotOffered };
  }
  if (
    test.department !== before?.department &&
    !isLabTestDepartment(test.department, ctx.labDepartmentList)
  ) {
    return { field: 'department', message: LAB_TEST_MESSAGES.departmentUnknown };
  }
  return null;
}

/**
 * A package's members: at least one, each a NORMAL test of the same lab (`found` holds the lab's rows
 * for the ids asked), never the package itself. A NORMAL test has none. Answers a message or null.
 */
export function packageMembersProblem(
  test: { id?: number; testType: TLabTestType; labTestsIds: readonly number[] },
  found: readonly { id: number; testType: TLabTestType }[],
): string | null {
  if (test.testType === 'NORMAL') {
    return test.labTestsIds.length > 0 ? LAB_TEST_MESSAGES.normalHasNoMembers : null;
  }
  if (test.labTestsIds.length === 0) return LAB_TEST_MESSAGES.packageNeedsMembers;
  if (test.id !== undefined && test.labTestsIds.includes(test.id))
    return LAB_TEST_MESSAGES.packageContainsItself;
  const byId = new Map(found.map((t) => [t.id, t.testType]));
  for (const id of test.labTestsIds) {
    if (byId.get(id) !== 'NORMAL') return LAB_TEST_MESSAGES.packageMemberNotNormal;
  }
  return null;
}

/**
 * Test dashboard tabs (spec-lab §2 "same three tabs" as the billing list), read for tests: Active —
 * the tests that can be billed; Scheduled — tests booked on a SCHEDULED bill (an appointment waits);
 * All — every test, inactive ones too.
 */
export const LAB_TEST_TABS = ['Active', 'Scheduled', 'All'] as const;
export type TLabTestTab = (typeof LAB_TEST_TABS)[number];

const ZIsoDate = z.iso.datetime({ offset: true });

/** The test dashboard search (ours: POST /api/lab/test/search). */
export const ZLabTestSearch = z
  .object({
    tab: z.enum(LAB_TEST_TABS).default('Active'),
    /** Test added date range (createdAt), inclusive start, exclusive end. */
    startTime: ZIsoDate.optional(),
    endTime: ZIsoDate.optional(),
    labModalities: z.array(z.enum(ALL_LAB_MODALITIES)).max(ALL_LAB_MODALITIES.length).default([]),
    page: z.number().int().min(0).max(1_000_000).default(0),
    size: z.number().int().min(1).max(LAB_LIMITS.pageSizeMax).default(20),
  })
  .meta({ id: 'LabTestSearch' });
export type TLabTestSearch = z.input<typeof ZLabTestSearch>;

/** POST /api/lab/all-test/get: the bill's test search (spec-lab §7). */
export const ZAllTestSearch = z
  .object({
    text: z.string().trim().max(100).default(''),
    labModality: z.enum(ALL_LAB_MODALITIES).optional(),
    department: z.string().trim().max(100).optional(),
    page: z.number().int().min(0).max(1_000_000).default(0),
    size: z.number().int().min(1).max(LAB_LIMITS.pageSizeMax).default(5),
  })
  .meta({ id: 'AllTestSearch' });
export type TAllTestSearch = z.input<typeof ZAllTestSearch>;

/** spec-lab §7: without text the bill's test search shows the first 5 by code. */
export const ALL_TEST_DEFAULT_SIZE = 5;

export const ZLabTestPage = z
  .object({ content: z.array(ZLabTest), totalElements: z.number().int() })
  .meta({ id: 'LabTestPage' });
export type TLabTestPage = z.infer<typeof ZLabTestPage>;
