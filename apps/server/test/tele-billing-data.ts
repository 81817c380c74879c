import type { TRole } from '@radflow/core';
import type { Db } from '../src/db/client.js';
import { savePreferenceSection } from '../src/modules/preferences/preferences.js';
import type { TestClient } from './test-app.js';
import { createTestStudies } from './worklist-test-data.js';

/*
 * Builders of the tele billing tests: signed-off study rows of a center at given instants, with their
 * study parts, urgency and status, and the group's billing details.
 */

export async function signedOffStudies(
  db: Db,
  place: { groupId: number; centerId: number },
  specs: Array<{
    at: string;
    modality?: string;
    parts?: string[];
    urgent?: boolean;
    status?: 'SIGNED_OFF' | 'DELETED';
    count?: number;
  }>,
) {
  const made = [];
  for (const s of specs) {
    const rows = await createTestStudies(db, s.count ?? 1, {
      ...place,
      modalities: [s.modality ?? 'CT'],
      row: {
        status: s.status ?? 'SIGNED_OFF',
        signedOffAt: new Date(s.at),
        firstSignedOffAt: new Date(s.at),
        studyParts: s.parts ?? [],
        urgent: s.urgent ?? false,
      },
    });
    made.push(...rows);
  }
  return made;
}

/** BILLING_DETAILS as a group account (no center) saved them: the invoices' issuer block and GST. */
export async function saveBillingDetails(db: Db, userId: number, details: Record<string, unknown>) {
  await savePreferenceSection(db, {
    ownerId: userId,
    section: 'BILLING_DETAILS',
    value: details,
    updatedBy: 'test',
  });
}

export const TELE_ROLES: TRole[] = ['ROLE_TELE_RADIOLOGY'];

export async function addPrice(browser: TestClient, body: Record<string, unknown>) {
  const res = await browser.post('/api/tele-pricing/prices', { charge: 'READ', studyPart: '', ...body });
  if (res.statusCode !== 200) throw new Error(`price ${JSON.stringify(body)}: ${res.statusCode} ${res.body}`);
  return res.json() as { id: number };
}
