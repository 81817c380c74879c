import { type TRole, type TStudyAuditStatus, type TStudyListRow, canSetAuditStatus } from '@radflow/core';

/** What the audit column says for each verdict (ours: the spec names the values, not their text). */
export const AUDIT_STATUS_TEXT: Record<TStudyAuditStatus | 'NONE', string> = {
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
  NONE: 'Not audited',
};

/** The accessible name of a row's switch (the tests find it by this). */
export const auditSwitchLabel = (id: number) => `Audit approval of study ${id}`;

/**
 * Whether the signed-in user gives this row's verdict: core canSetAuditStatus (the study's assigned
 * auditor, on SIGNED_OFF), which the server checks too.
 */
export function offersAuditSwitch(
  actor: { roles: readonly TRole[]; email: string },
  row: Pick<TStudyListRow, 'status' | 'auditor'>,
): boolean {
  const isAssignedAuditor = row.auditor !== null && row.auditor.toLowerCase() === actor.email.toLowerCase();
  return canSetAuditStatus({ roles: actor.roles, row, isAssignedAuditor });
}
