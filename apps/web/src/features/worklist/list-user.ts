import type { TUserMapping } from '../../api/identity';
import { readJsonMap, writeJsonMap } from './browser-storage';

const DOCTOR_ROLE = 'ROLE_DOCTOR';
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * spec-core §2: "A doctor sees this admin list if they have the doctor role in the user map". GET
 * /user/mapping lists every doctor of the group under ROLE_DOCTOR, the caller included, so the
 * caller's own entry says nothing. Decision: the doctor role is "in the user map" when the map names
 * a doctor other than the caller, i.e. the doctor works with other doctors and sees the group's list.
 */
export function hasDoctorRoleInUserMap(mapping: TUserMapping, userEmail: string): boolean {
  return (mapping[DOCTOR_ROLE] ?? []).some((u) => !same(u.email, userEmail));
}

/**
 * spec-core §6 typist doctor gate: the doctors a typist may type for, the active users of the
 * doctor role in the typist's user map (a typist's explicit mapping replaces the group's list).
 */
export function doctorsForTypist(mapping: TUserMapping): string[] {
  return (mapping[DOCTOR_ROLE] ?? []).filter((u) => u.active).map((u) => u.email);
}

/** The typist's chosen doctor per typist, kept so a reload does not ask again. */
export const CONTEXT_DOCTOR_STORAGE_KEY = 'radflow.contextDoctor';

/** The kept choice while that doctor is still one of the typist's; null asks again. */
export function readContextDoctor(
  storage: Storage | undefined,
  typistEmail: string,
  doctors: readonly string[],
): string | null {
  const kept = readJsonMap(storage, CONTEXT_DOCTOR_STORAGE_KEY)[typistEmail.toLowerCase()];
  if (typeof kept !== 'string') return null;
  return doctors.find((d) => same(d, kept)) ?? null;
}

export function keepContextDoctor(storage: Storage | undefined, typistEmail: string, doctor: string | null) {
  const all = readJsonMap(storage, CONTEXT_DOCTOR_STORAGE_KEY);
  const key = typistEmail.toLowerCase();
  if (doctor === null) delete all[key];
  else all[key] = doctor;
  writeJsonMap(storage, CONTEXT_DOCTOR_STORAGE_KEY, all);
}
