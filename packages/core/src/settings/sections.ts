import { z } from 'zod';
import { EMAIL_PATTERN, MOBILE_PATTERN } from '../common/validation.js';
import { SETTINGS_MESSAGES as M } from './messages.js';

/**
 * The settings sections of spec-lab §3/§5/§7 with their rules (issue 6 §2 fixes the open shapes).
 * Every field has a default, so `Section.parse({})` is the section's default value. Rules sit on the
 * fields (not on the object) because the update call rebuilds the object strictly from its shape.
 * The list sections (SERIES_NAME, TAGS, LAB_DEPARTMENTS, LAB_CATEGORY_PRIORITY) are saved whole: a
 * list sent replaces the stored list.
 */

/** spec-lab §9. */
export const EDITOR_FONT_SIZES = [8, 9, 10, 11, 12, 14, 16, 18, 20, 22, 24, 26, 28, 36, 48, 72] as const;
export const EDITOR_FONT_FAMILIES = [
  'Arial',
  'Comic Sans MS',
  'Courier New',
  'Georgia',
  'Lucida Sans Unicode',
  'Tahoma',
  'Times New Roman',
  'Trebuchet MS',
  'Verdana',
] as const;

/** Caps that keep a section a few kilobytes; the spec gives none. */
export const SETTING_LIMITS = {
  listEntries: 500,
  nameLength: 128,
  reportTextLength: 100_000,
  textLength: 2_000,
} as const;

/** spec-lab §5 Tag: letters and digits only. */
export const TAG_PATTERN = /^[A-Za-z0-9]+$/;

/** Reports each entry whose key was already seen (first one wins), at the entry's index. */
function refuseDuplicates<T>(keyOf: (entry: T) => string, message: string, path: (string | number)[] = []) {
  return (list: T[], ctx: z.RefinementCtx) => {
    const seen = new Set<string>();
    list.forEach((entry, index) => {
      const key = keyOf(entry);
      if (seen.has(key)) ctx.addIssue({ code: 'custom', message, path: [index, ...path] });
      seen.add(key);
    });
  };
}

// ---- SERIES_NAME {seriesMappings} (spec-lab §3 series mapping, §5) ----

const seriesNameText = z
  .string({ error: M.seriesNamesRequired })
  .trim()
  .min(1, M.seriesNamesRequired)
  .max(SETTING_LIMITS.nameLength);

export const ZSeriesMappingEntry = z.object({ seriesName: seriesNameText, preferredName: seriesNameText });

export const ZSeriesNameSetting = z.object({
  seriesMappings: z
    .array(ZSeriesMappingEntry)
    .max(SETTING_LIMITS.listEntries)
    .superRefine(refuseDuplicates((e) => e.seriesName, M.seriesNameDuplicate, ['seriesName']))
    .default([]),
});
export type TSeriesNameSetting = z.infer<typeof ZSeriesNameSetting>;

// ---- TAGS {tags} (spec-core §3, spec-lab §5; issue 6 §2: a string array) ----

/** What the update call accepts; stored lists are read leniently (preferences.ts ZTags). */
export const ZTagsSetting = z.object({
  tags: z
    .array(z.string({ error: M.tagCharacters }).regex(TAG_PATTERN, M.tagCharacters).max(64))
    .max(SETTING_LIMITS.listEntries)
    // The same tag twice is one tag: nothing to tell the user.
    .transform((tags) => [...new Set(tags)])
    .default([]),
});

// ---- LAB_DEPARTMENTS {labDepartmentList, referringDoctorDepartmentList} (spec-lab §3, §5) ----

const departmentList = z
  .array(
    z
      .string({ error: M.departmentRequired })
      .trim()
      .toUpperCase()
      .min(1, M.departmentRequired)
      .max(SETTING_LIMITS.nameLength),
  )
  .max(SETTING_LIMITS.listEntries)
  .superRefine((list, ctx) => {
    list.forEach((name, index) => {
      if (name === 'NONE') ctx.addIssue({ code: 'custom', message: M.departmentNone, path: [index] });
    });
  })
  .superRefine(refuseDuplicates((name: string) => name, M.departmentDuplicate))
  .default([]);

export const ZLabDepartmentsSetting = z.object({
  labDepartmentList: departmentList,
  referringDoctorDepartmentList: departmentList,
});
export type TLabDepartmentsSetting = z.infer<typeof ZLabDepartmentsSetting>;

/**
 * spec-lab §5 "departments cannot be deleted": the saved lists must keep every stored department.
 * Answers the first department the new lists leave out, or null when nothing was removed.
 */
export function removedDepartment(
  before: TLabDepartmentsSetting,
  after: TLabDepartmentsSetting,
): string | null {
  for (const key of ['labDepartmentList', 'referringDoctorDepartmentList'] as const) {
    const kept = new Set(after[key]);
    const removed = before[key].find((name) => !kept.has(name));
    if (removed !== undefined) return removed;
  }
  return null;
}

// ---- LAB_CATEGORY_PRIORITY {categoriesAndPriorities} (spec-lab §3 category/priority entry, §5) ----

export const CATEGORY_PRIORITY_TYPES = ['PATIENT_CATEGORY', 'PRIORITY'] as const;

/**
 * What the form sends, made an entry: a discount typed in a text field becomes a number (a blank or
 * missing one is 0); a priority's discount is 0 (spec-lab §3). Used on the update path only, since
 * the answers are serialised with the stored shape, which must not transform.
 */
const normalizeEntry = (v: unknown) => {
  if (typeof v !== 'object' || v === null) return v;
  const entry = v as Record<string, unknown>;
  let discount = entry.discount;
  if (
    discount === undefined ||
    discount === null ||
    (typeof discount === 'string' && discount.trim() === '')
  ) {
    discount = 0;
  } else if (typeof discount === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(discount)) {
    discount = Number(discount);
  }
  return { ...entry, discount: entry.type === 'PRIORITY' ? 0 : discount };
};

export const ZCategoryPriorityEntry = z.object({
  name: z
    .string({ error: M.categoryNameRequired })
    .trim()
    .min(1, M.categoryNameRequired)
    .max(SETTING_LIMITS.nameLength)
    .refine((name) => name.toLowerCase() !== 'none', M.categoryNone),
  discount: z
    .number({ error: M.discountInvalid })
    .min(0, M.discountInvalid)
    .max(100, M.discountTooLarge)
    .default(0),
  type: z.enum(CATEGORY_PRIORITY_TYPES),
  disabled: z.boolean().default(false),
});
type TCategoryPriorityEntry = z.infer<typeof ZCategoryPriorityEntry>;

const categoryList = <T extends z.ZodType<TCategoryPriorityEntry, unknown>>(entry: T) =>
  z
    .array(entry)
    .max(SETTING_LIMITS.listEntries)
    .superRefine(
      refuseDuplicates(
        (e: TCategoryPriorityEntry) => `${e.type}:${e.name.toLowerCase()}`,
        M.categoryDuplicate,
        ['name'],
      ),
    )
    .default([]);

/** The stored section (and the answer's shape). */
export const ZLabCategoryPrioritySetting = z.object({
  categoriesAndPriorities: categoryList(ZCategoryPriorityEntry),
});

/** What POST /setting/update/LAB_CATEGORY_PRIORITY accepts (see normalizeEntry). */
export const ZLabCategoryPriorityUpdate = z.object({
  categoriesAndPriorities: categoryList(z.preprocess(normalizeEntry, ZCategoryPriorityEntry)),
});

// ---- EDITOR_PREFERENCES (spec-lab §3 editor preferences, §9 lists) ----

export const ZEditorPreferences = z.object({
  defaultEditorFontSize: z
    .number({ error: M.fontSizeInvalid })
    .refine((n) => (EDITOR_FONT_SIZES as readonly number[]).includes(n), M.fontSizeInvalid)
    .default(12),
  defaultEditorFontFamily: z.enum(EDITOR_FONT_FAMILIES, { error: M.fontFamilyInvalid }).default('Arial'),
  hideReportPreview: z.boolean().default(false),
  showImagesInPrintPreview: z.boolean().default(false),
});

// ---- REPORT_TEXT (spec-lab §3 report text: header, footer, disclaimer as HTML) ----

const reportHtml = z.string().max(SETTING_LIMITS.reportTextLength, M.reportTextTooLong).default('');
export const ZReportTextSetting = z.object({
  header: reportHtml,
  footer: reportHtml,
  disclaimer: reportHtml,
});

// ---- USER_INFORMATION = contact info (spec-core §3 USER_INFORMATION, spec-lab §3 contact info) ----

const blankOr = (pattern: RegExp) => (v: string) => v === '' || pattern.test(v);

export const ZContactInfoSetting = z.object({
  email: z.string().trim().toLowerCase().refine(blankOr(EMAIL_PATTERN), M.emailInvalid).default(''),
  mobileNumber: z.string().trim().refine(blankOr(MOBILE_PATTERN), M.mobileInvalid).default(''),
  address: z.string().max(SETTING_LIMITS.textLength).default(''),
  gstNumber: z.string().trim().toUpperCase().max(15).default(''),
  disclaimer: z.string().max(SETTING_LIMITS.textLength).default(''),
  /** The uploaded image's URL (POST /setting/upload-assets/ answers it). */
  centerImage: z.string().max(1_000).default(''),
  copyLinkTitleText: z.string().max(200).default(''),
});

// ---- BILLING_DETAILS (spec-lab §3 billing: the bank and tax details printed on invoices) ----

/** Indian PAN: five letters, four digits, a letter. */
export const PAN_PATTERN = /^[A-Z]{5}[0-9]{4}[A-Z]$/;
/** Indian IFSC: four letters (the bank), a zero, six letters or digits (the branch). */
export const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;
export const BANK_ACCOUNT_PATTERN = /^[0-9]{6,20}$/;
/** An uploaded image (POST /setting/upload-assets/ answers `/api/assets/{id}`) or an http(s) link. */
export const IMAGE_LINK_PATTERN = /^(https?:\/\/|\/api\/assets\/)\S+$/;

const billingText = z.string().trim().max(SETTING_LIMITS.nameLength).default('');

export const ZBillingDetailsSetting = z.object({
  logo: z
    .string()
    .trim()
    .max(1_000, M.logoInvalid)
    .refine(blankOr(IMAGE_LINK_PATTERN), M.logoInvalid)
    .default(''),
  accName: billingText,
  bankName: billingText,
  bankAccount: z.string().trim().refine(blankOr(BANK_ACCOUNT_PATTERN), M.bankAccountInvalid).default(''),
  bankIFSC: z.string().trim().toUpperCase().refine(blankOr(IFSC_PATTERN), M.ifscInvalid).default(''),
  bankBranch: billingText,
  pan: z.string().trim().toUpperCase().refine(blankOr(PAN_PATTERN), M.panInvalid).default(''),
  gstNumber: z.string().trim().toUpperCase().max(15).default(''),
  gstPercentage: z
    .number({ error: M.gstPercentageInvalid })
    .min(0, M.gstPercentageInvalid)
    .max(100, M.gstPercentageInvalid)
    .default(0),
});
export type TBillingDetailsSetting = z.infer<typeof ZBillingDetailsSetting>;

// ---- VERIFICATION_SETTINGS (group; spec-lab §3 verification settings) ----

const verificationEmail = z
  .string({ error: M.emailInvalid })
  .trim()
  .toLowerCase()
  .regex(EMAIL_PATTERN, M.emailInvalid);

/**
 * signOffTimeLimit and showRedAfterTAT of the same dialog stay in ADMIN_PREFERENCES (spec-core §3),
 * where the worklist reads them: one value, one place.
 */
export const ZVerificationSettings = z.object({
  needVerification: z.boolean().default(false),
  selectAllDoctorsAndCenters: z.boolean().default(false),
  centersAndDoctorsList: z
    .array(z.object({ centerEmail: verificationEmail, doctorEmail: verificationEmail }))
    .max(SETTING_LIMITS.listEntries)
    .default([]),
});
