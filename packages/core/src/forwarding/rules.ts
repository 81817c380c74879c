import { type TRole, hasRole } from '../identity/roles.js';

/*
 * Forwarding to a PACS (issue 3 §6): the rules the study list needs on its first load, kept apart from
 * the forwarding schemas (schemas.ts re-exports them, and its ZCaseSendBadge and
 * ZForwardRecord are the shapes below).
 */

type TSendRecordFacts = {
  id: number;
  status: 'IN_PROGRESS' | 'FAILED' | 'SEND';
  success: number;
  total: number;
  createdAt: string;
};
type TBadge = {
  state: 'NONE' | 'SEND' | 'IN_PROGRESS' | 'FAILED';
  label: string;
  percentage: number | null;
};

/** Whole percent of the instances sent; 100 only when every one is. */
export function sendPercentage(success: number, total: number): number {
  if (total <= 0) return 0;
  return Math.floor((success * 100) / total);
}

/**
 * spec-core §4 case-send badge of a study from its send records (newest first or any order): while
 * a send is in progress, its percentage (over every in-progress record); otherwise the newest
 * record decides: 'Case Send' or 'Case Failed'. No record: no badge.
 */
export function caseSendBadge(records: ReadonlyArray<TSendRecordFacts>): TBadge {
  if (records.length === 0) return { state: 'NONE', label: '', percentage: null };
  const running = records.filter((r) => r.status === 'IN_PROGRESS');
  if (running.length > 0) {
    const success = running.reduce((n, r) => n + r.success, 0);
    const total = running.reduce((n, r) => n + r.total, 0);
    const percentage = sendPercentage(success, total);
    return { state: 'IN_PROGRESS', label: `${percentage}%`, percentage };
  }
  const newest = [...records].sort((a, b) =>
    a.createdAt === b.createdAt ? b.id - a.id : a.createdAt < b.createdAt ? 1 : -1,
  )[0];
  return newest?.status === 'SEND'
    ? { state: 'SEND', label: 'Case Send', percentage: 100 }
    : { state: 'FAILED', label: 'Case Failed', percentage: null };
}

/**
 * Who may forward a study to a PACS (issue 3 §6): center users and the group's staff who run the
 * studies. Doctors, typists, auditors, referring doctors, customers, viewers and the lab desk may not.
 */
export const FORWARDING_ROLES: readonly TRole[] = [
  'ROLE_CENTER',
  'ROLE_CENTER_BACKUP',
  'ROLE_CENTER_SHARE_ALL',
  'ROLE_OFFLINE_HYBRID',
  'ROLE_ADMIN',
  'ROLE_GROUP',
  'ROLE_ASSIGNOR',
  'ROLE_VERIFIER',
  'ROLE_BILLER',
  'ROLE_ADMIN_BILLER',
  'ROLE_TELE_RADIOLOGY',
];

/** Issue 3 §6: may send studies and see the destinations and send status. */
export function canForwardToPacs(roles: readonly TRole[]): boolean {
  return hasRole(roles, ...FORWARDING_ROLES);
}
