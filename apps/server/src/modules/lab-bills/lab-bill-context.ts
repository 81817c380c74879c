import { type TCategoryEntry, type TLabSlot, type TTestAttributeDefinition, groupFlags } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import type { TAuth } from '../../plugins/auth.js';
import { loadLabPreferences } from '../lab-settings/lab-preferences.js';
import { loadUserPreferences } from '../preferences/preferences.js';

/** What a bill write reads from the lab's settings and the group's switches. */
export interface TLabBillContext {
  slots: TLabSlot[];
  categories: TCategoryEntry[];
  attributeDefinitions: TTestAttributeDefinition[];
  /** The group's display time zone: slot times and bill-date days are read in it. */
  timeZone: string;
  /** appointmentSupportRIS: bills may book slots. */
  appointments: boolean;
  /** enableRISCategory: bills may carry a category and a priority. */
  categoriesOn: boolean;
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
  // Stored and read through lab-tests' core schema (loadTestAttributes parses it): no second parse here.
  const attributes = opts.attributes
    ? (await loadLabPreferences(db, auth.user)).LAB_TEST_ATTRIBUTES.data
    : [];
  return {
    slots: prefs.LAB_SLOTS.slots,
    categories: prefs.LAB_CATEGORY_PRIORITY.categoriesAndPriorities,
    attributeDefinitions: attributes,
    timeZone: flags.displayTimeZone,
    appointments: flags.appointmentSupportRIS,
    categoriesOn: flags.enableRISCategory,
  };
}
