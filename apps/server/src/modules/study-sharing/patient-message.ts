import { and, desc, eq } from 'drizzle-orm';
import { ZContactInfoSetting, formatDicomText, formatPersonName } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { centers, preferences, users } from '../../db/schema.js';

/*
 * The group switch customMessageForGIC (spec-lab §6, "messages to patients use the custom text made
 * for GIC"): a report link sent by SMS or WhatsApp to a patient — no referring physician named —
 * greets the patient by name, says which center's report it is and gives the center's phone from
 * its contact info, instead of the neutral "The report of … is shared with you". The spec names the
 * switch only; this wording is ours (study-sharing/DECISIONS.md).
 */

export interface TCenterContact {
  name: string;
  /** The center's contact info mobile number; '' when it set none. */
  mobileNumber: string;
}

/** The center's name and the newest contact info saved by one of its users. */
export async function loadCenterContact(db: DbOrTx, centerId: number): Promise<TCenterContact> {
  const [center] = await db.select({ name: centers.name }).from(centers).where(eq(centers.id, centerId));
  const [contact] = await db
    .select({ value: preferences.value })
    .from(preferences)
    .innerJoin(users, and(eq(preferences.scope, 'USER'), eq(users.id, preferences.ownerId)))
    .where(and(eq(users.centerId, centerId), eq(preferences.section, 'USER_INFORMATION')))
    .orderBy(desc(preferences.updatedAt), desc(preferences.id))
    .limit(1);
  const parsed = ZContactInfoSetting.safeParse(contact?.value ?? {});
  return { name: center?.name ?? '', mobileNumber: parsed.success ? parsed.data.mobileNumber : '' };
}

/** The patient's message: stored DICOM names read as people write them; empty parts left out. */
export function patientMessageText(input: {
  patientName: string | null;
  studyName: string | null;
  center: TCenterContact;
  url: string;
}): string {
  const patient = formatPersonName(input.patientName) || 'Patient';
  const study = formatDicomText(input.studyName);
  const report = study ? `your ${study} report` : 'your report';
  const from = input.center.name ? ` from ${input.center.name}` : '';
  const call = input.center.mobileNumber ? `\nFor any query, call ${input.center.mobileNumber}.` : '';
  return `Dear ${patient}, ${report}${from} is ready: ${input.url}${call}`;
}
