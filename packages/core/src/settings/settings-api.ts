import { z } from 'zod';
import { ZLabCategoryPrioritySetting, ZLabDepartmentsSetting } from './sections.js';
import { ZLabSlotsSetting } from './lab-slots.js';
import { ZTestAttributeDefinition } from '../lab/test-attributes.js';

/** The largest page GET /api/setting/group-changes answers. */
export const GROUP_CHANGES_MAX_PAGE_SIZE = 100;

/** GET /api/setting/group-changes?page&size (issue 6 contract): page from 0, size 1-100 (default 50). */
export const ZGroupChangesQuery = z.object({
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  size: z.coerce.number().int().min(1).max(GROUP_CHANGES_MAX_PAGE_SIZE).default(50),
});

/** One changed field of a group section: who changed it, when, from what to what. */
export const ZGroupSettingChange = z
  .object({
    id: z.number().int(),
    section: z.string(),
    field: z.string(),
    oldValue: z.unknown(),
    newValue: z.unknown(),
    changedBy: z.string(),
    changedAt: z.string(),
  })
  .meta({ id: 'GroupSettingChange' });
export type TGroupSettingChange = z.infer<typeof ZGroupSettingChange>;

/** The page of group setting changes, newest first. */
export const ZGroupChangesPage = z
  .object({ content: z.array(ZGroupSettingChange), totalElements: z.number().int() })
  .meta({ id: 'GroupChangesPage' });
export type TGroupChangesPage = z.infer<typeof ZGroupChangesPage>;

/** Test attribute definitions of spec-lab §3 (core lab/test-attributes.ts), stored per lab. */
export const ZLabTestAttributesSetting = z.object({ data: z.array(ZTestAttributeDefinition).default([]) });

/** GET /api/lab/get-preferences (spec-lab §3 "Lab preferences"): the caller's center's lab sections. */
export const ZLabPreferences = z
  .object({
    LAB_SLOTS: ZLabSlotsSetting,
    LAB_CATEGORY_PRIORITY: ZLabCategoryPrioritySetting,
    LAB_TEST_ATTRIBUTES: ZLabTestAttributesSetting,
    LAB_DEPARTMENTS: ZLabDepartmentsSetting,
  })
  .meta({ id: 'LabPreferences' });
export type TLabPreferences = z.infer<typeof ZLabPreferences>;
