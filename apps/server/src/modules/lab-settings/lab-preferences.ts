import type { TLabPreferences } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { type TPreferenceUser, loadUserPreferences } from '../preferences/preferences.js';
import { loadTestAttributes } from './lab-test-attributes.js';
import { labOwnerOf } from './lab-owner.js';

/**
 * GET /api/lab/get-preferences (spec-lab §3 "Lab preferences"): the lab sections of the caller's
 * center, the same ones the center saves from its settings (core CENTER_SECTIONS), so reception sees
 * what the center set. LAB_TEST_ATTRIBUTES are the caller's lab's (lab-tests/test-attributes.ts), saved
 * by its supervisor.
 */
export async function loadLabPreferences(db: DbOrTx, user: TPreferenceUser): Promise<TLabPreferences> {
  const [prefs, attributes] = await Promise.all([
    loadUserPreferences(db, user),
    loadTestAttributes(db, labOwnerOf({ user })),
  ]);
  return {
    LAB_SLOTS: prefs.LAB_SLOTS,
    LAB_CATEGORY_PRIORITY: prefs.LAB_CATEGORY_PRIORITY,
    LAB_TEST_ATTRIBUTES: { data: attributes.data },
    LAB_DEPARTMENTS: prefs.LAB_DEPARTMENTS,
  };
}
