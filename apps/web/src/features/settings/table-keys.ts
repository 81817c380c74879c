import {
  isPathAllowed,
  listKindForUser,
  tableKeyForList,
  type TStudyListRoute,
  type TTableKey,
} from '@radflow/core';
import type { TSession } from '../auth/session';
import { hasDoctorRoleInUserMap } from '../worklist/list-user';

export const TABLE_KEY_LABELS: Record<TTableKey, string> = {
  studyList: 'Study list',
  adminStudyList: 'Admin study list',
  centerReportList: 'Manage report',
  doctorSummary: 'Doctor summary',
};

/** Routes with a study table of a fixed key, whatever the list kind. */
const FIXED_TABLES: readonly [string, TTableKey][] = [
  ['/admin-page', 'adminStudyList'],
  ['/hybrid-study-list', 'centerReportList'],
];

/**
 * The table keys of the study lists this user can open (spec-core §9 "column choice per table"), so
 * the Table Columns entry offers only tables the user sees: the list kind of '/' and '/status' as
 * the lists themselves decide it, and the fixed tables of the admin and hybrid lists.
 */
export function tableKeysOfUser(
  session: Pick<TSession, 'roles' | 'flags' | 'mapping' | 'user' | 'menuContext'>,
) {
  const keys = new Set<TTableKey>();
  const listUser = {
    roles: session.roles,
    hasDoctorRoleInUserMap: hasDoctorRoleInUserMap(session.mapping, session.user.email),
  };
  for (const route of ['/', '/status'] as const satisfies readonly TStudyListRoute[]) {
    if (!isPathAllowed(session.menuContext, route)) continue;
    const kind = listKindForUser(listUser, session.flags, route);
    if (kind) keys.add(tableKeyForList(kind));
  }
  for (const [path, key] of FIXED_TABLES) if (isPathAllowed(session.menuContext, path)) keys.add(key);
  return [...keys];
}
