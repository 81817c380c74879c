import { z } from 'zod';
import { type TAttributeDefinition, type TCategoryEntry, type TLabSlot, groupFlags } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import type { TAuth } from '../../plugins/auth.js';
import { loadLabPreferences } from '../lab-settings/lab-preferences.js';
import { loadUserPreferences } from '../preferences/preferences.js';

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

/**
 * One preferences query gives the lab's sections and the group's switches (loadUserPreferences, the
 * same rows GET /api/lab/get-preferences reads). The film size and contrast definitions are read
 * through loadLabPreferences, their owner, only when a bill names one.
 */
export async function loadLabBillContext(
  db: DbOrTx,
  auth: TAuth,
  opts: { attributes: boolean } = { attributes: false },
): Promise<TLabBillContext> {
  const prefs = await loadUserPreferences(db, auth.user);
  const flags = groupFlags(prefs);
  const attributes = opts.attributes
    ? (await loadLabPreferences(db, auth.user)).LAB_TEST_ATTRIBUTES.data
    : [];
  return {
    slots: prefs.LAB_SLOTS.slots,
    categories: prefs.LAB_CATEGORY_PRIORITY.categoriesAndPriorities,
    attributeDefinitions: attributeDefinitionsOf(attributes),
    timeZone: flags.displayTimeZone,
    appointments: flags.appointmentSupportRIS,
    categoriesOn: flags.enableRISCategory,
  };
}
