import { z } from 'zod';
import { type TAttributeDefinition, type TCategoryEntry, type TLabSlot, groupFlags } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import type { TAuth } from '../../plugins/auth.js';
import { loadLabPreferences } from '../lab-settings/lab-preferences.js';
import { loadGroupPreferences } from '../preferences/preferences.js';

/** What a bill write reads from the lab's settings and the group's switches. */
export interface TLabBillContext {
  slots: TLabSlot[];
  categories: TCategoryEntry[];
  attributeDefinitions: TAttributeDefinition[];
  /** The group's display time zone: slot times and bill-date days are read in it. */
  timeZone: string;
  /** appointmentSupportRIS: bills may book slots. */
  appointments: boolean;
  /** enableRISCategory: bills may carry a category and a priority. */
  categoriesOn: boolean;
}

const ZFilmSize = z.object({
  type: z.literal('MODALITY_BASED_FILM_SIZE'),
  modality: z.string(),
  filmSize: z.array(z.object({ size: z.string(), price: z.number(), default: z.boolean().optional() })),
});
const ZContrast = z.object({
  type: z.literal('MODALITY_BASED_CONTRAST'),
  modality: z.string(),
  contrastVolume: z.array(
    z.object({ volume: z.string(), price: z.number(), default: z.boolean().optional() }),
  ),
});
const ZAttributeDefinition = z.union([ZFilmSize, ZContrast]);

/** The spec-lab §3 definitions among LAB_TEST_ATTRIBUTES data; entries of another shape are not prices. */
function attributeDefinitionsOf(data: readonly unknown[]): TAttributeDefinition[] {
  return data.flatMap((entry) => {
    const parsed = ZAttributeDefinition.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

export async function loadLabBillContext(db: DbOrTx, auth: TAuth): Promise<TLabBillContext> {
  const [lab, group] = await Promise.all([
    loadLabPreferences(db, auth.user),
    loadGroupPreferences(db, auth.user.groupId),
  ]);
  const flags = groupFlags(group);
  return {
    slots: lab.LAB_SLOTS.slots,
    categories: lab.LAB_CATEGORY_PRIORITY.categoriesAndPriorities,
    attributeDefinitions: attributeDefinitionsOf(lab.LAB_TEST_ATTRIBUTES.data),
    timeZone: flags.displayTimeZone,
    appointments: flags.appointmentSupportRIS,
    categoriesOn: flags.enableRISCategory,
  };
}
