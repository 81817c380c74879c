import type { TGroupFlags, TLabSlot, TRole } from '@radflow/core';
import type { Db } from '../src/db/client.js';
import { labPatients, labReferringDoctors, labTests } from '../src/db/schema.js';
import { savePreferenceSection } from '../src/modules/preferences/preferences.js';
import {
  type TestApp,
  type TestClient,
  createTestCenter,
  createTestGroup,
  setGroupPreference,
  signIn,
} from './test-app.js';

/**
 * Lab rows the bill tests stand on, written straight to their tables: patients, referring doctors
 * and the test catalogue belong to other parts of the lab (their calls are not these tests' subject).
 */

export interface TLabOwnerRow {
  groupId: number;
  labScope: 'CENTER' | 'GROUP';
  labOwnerId: number;
}

export const centerLab = (groupId: number, centerId: number): TLabOwnerRow => ({
  groupId,
  labScope: 'CENTER',
  labOwnerId: centerId,
});

let serial = 0;

export async function insertPatient(db: Db, owner: TLabOwnerRow, name = 'Asha Rao') {
  serial += 1;
  const [row] = await db
    .insert(labPatients)
    .values({
      ...owner,
      uhidNumber: `UH${Date.now().toString(36)}${serial}`,
      name,
      mobileNumber: '9876543210',
      gender: 'F',
      designation: 'MRS',
      ageString: '42 Y',
      ageYears: 42,
      createdBy: 'test',
    })
    .returning();
  return row!;
}

export async function insertDoctor(
  db: Db,
  owner: TLabOwnerRow,
  opts: { name?: string; active?: boolean } = {},
) {
  const [row] = await db
    .insert(labReferringDoctors)
    .values({
      ...owner,
      name: opts.name ?? 'Dr Mehta',
      mobileNumber: '9812345678',
      active: opts.active ?? true,
      createdBy: 'test',
    })
    .returning();
  return row!;
}

export async function insertTest(
  db: Db,
  owner: TLabOwnerRow,
  opts: { code: string; name?: string; modality?: string; rupees: number; active?: boolean },
) {
  const [row] = await db
    .insert(labTests)
    .values({
      ...owner,
      testCode: opts.code,
      testName: opts.name ?? `Test ${opts.code}`,
      testType: 'NORMAL',
      labModality: opts.modality ?? 'CT',
      priceMinor: Math.round(opts.rupees * 100),
      active: opts.active ?? true,
      createdBy: 'test',
    })
    .returning();
  return row!;
}

export async function setCenterSection(
  db: Db,
  centerId: number,
  section: 'LAB_SLOTS' | 'LAB_CATEGORY_PRIORITY',
  value: unknown,
) {
  await savePreferenceSection(db, { scope: 'CENTER', ownerId: centerId, section, value, updatedBy: 'test' });
}

/** A center lab with the group switches asked, a receptionist and a supervisor, a patient, a doctor, two tests. */
export async function labPlace(t: TestApp, flags: Partial<TGroupFlags> = {}) {
  const group = await createTestGroup(t.db);
  if (Object.keys(flags).length > 0) {
    await setGroupPreference(t.db, group.id, 'GROUP_SWITCHES', flags);
    await setGroupPreference(t.db, group.id, 'USER_ADMIN_VISIBLE_PREFERENCES', flags);
  }
  const center = await createTestCenter(t.db, { groupId: group.id });
  const owner = centerLab(group.id, center.id);
  const as = async (roles: TRole[], centerId: number | null = center.id) =>
    (await signIn(t, { roles, groupId: group.id, centerId })).browser;
  const [receptionist, supervisor, patient, doctor, ct, dx] = await Promise.all([
    as(['ROLE_LABS_RECEPTIONIST']),
    as(['ROLE_LABS_SUPERVISOR']),
    insertPatient(t.db, owner),
    insertDoctor(t.db, owner),
    insertTest(t.db, owner, { code: 'CT01', name: 'CT Head', modality: 'CT', rupees: 1500 }),
    insertTest(t.db, owner, { code: 'DX01', name: 'Chest PA', modality: 'DX', rupees: 499.5 }),
  ]);
  return { group, center, owner, as, receptionist, supervisor, patient, doctor, ct, dx };
}

/** A slot of one modality on every weekday, in the group's zone (the default +05:30). */
export function everyDaySlot(
  name: string,
  modality: string,
  limit: number,
  blockedDays: string[] = [],
): TLabSlot {
  const timing = { startTime: '09:00', endTime: '10:00', appointmentLimit: limit };
  return {
    name,
    labModalities: [modality as TLabSlot['labModalities'][number]],
    weeklyTiming: Object.fromEntries(['0', '1', '2', '3', '4', '5', '6'].map((d) => [d, timing])),
    blockedDays,
  };
}

/** The instants of a day's 09:00–10:00 window in Asia/Kolkata. */
export function windowOn(day: string): { startTimeOfAppointment: string; endTimeOfAppointment: string } {
  return {
    startTimeOfAppointment: new Date(`${day}T03:30:00.000Z`).toISOString(),
    endTimeOfAppointment: new Date(`${day}T04:30:00.000Z`).toISOString(),
  };
}

/** TestClient has no put: the lab's update calls are PUTs. */
export function put(
  browser: TestClient,
  url: string,
  payload: unknown,
  headers: Record<string, string> = {},
) {
  return browser.request({ method: 'PUT', url, payload: payload as object, headers });
}
