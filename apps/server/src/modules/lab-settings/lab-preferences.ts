import type { TLabPreferences } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { type TPreferenceUser, loadUserPreferences } from '../preferences/preferences.js';

/**
 * GET /api/lab/get-preferences (spec-lab §3 "Lab preferences"): the lab sections of the caller's
 * center, the same ones the center saves from its settings (core CENTER_SECTIONS), so reception sees
 * what the center set. LAB_TEST_ATTRIBUTES has no store until the lab issue: empty.
 */
export async function loadLabPreferences(db: DbOrTx, user: TPreferenceUser): Promise<TLabPreferences> {
  const prefs = await loadUserPreferences(db, user);
  return {
    LAB_SLOTS: prefs.LAB_SLOTS,
    LAB_CATEGORY_PRIORITY: prefs.LAB_CATEGORY_PRIORITY,
    LAB_TEST_ATTRIBUTES: { data: [] },
    LAB_DEPARTMENTS: prefs.LAB_DEPARTMENTS,
  };
}
