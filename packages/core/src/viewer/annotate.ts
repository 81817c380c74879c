import { REPORT_READ_ONLY_ROLES, type TRole, hasRole } from '../identity/roles.js';
import { type TActorCenter, actingRoles } from '../worklist/study-row.js';

/**
 * Roles that only look at images: the read-only roles of spec-core §5/§6 (referring doctor, auditor,
 * customer, viewer, lab supervisor, lab receptionist), plus the roles that see studies without
 * working on them (center backup: read-only by its name, see worklist DECISIONS.md; dashboard viewer
 * and sales see no study).
 */
export const VIEWER_READ_ONLY_ROLES: readonly TRole[] = [
  ...REPORT_READ_ONLY_ROLES,
  'ROLE_CENTER_BACKUP',
  'ROLE_DASHBOARD_VIEWER',
  'ROLE_RADFLOW_SALES',
];

/**
 * Whether the user may draw, change or delete measurements and arrows, and mark key images, on a
 * study (issue 5 §2). One role that may is enough (as for report editing); center roles count only
 * on their own center's studies (`actingRoles`: a share-all account reads other centers' studies
 * without changing them). Never on a deleted study.
 */
export function canAnnotateStudy(
  input: TActorCenter & { roles: readonly TRole[]; row: { centerId: number | null; status: string } },
): boolean {
  if (input.row.status === 'DELETED') return false;
  return actingRoles(input).some((r) => !VIEWER_READ_ONLY_ROLES.includes(r));
}

/** The group's admins, who may change or delete anyone's annotation. */
export const ANNOTATION_ADMIN_ROLES: readonly TRole[] = ['ROLE_ADMIN', 'ROLE_GROUP'];

/**
 * Whether the user may change or delete one saved annotation (issue 5 §2): their own, or anyone's
 * for a group admin (ROLE_ADMIN, ROLE_GROUP). An annotation whose author was removed (null) is the
 * admins' only. `canAnnotateStudy` must hold as well.
 */
export function canChangeAnnotation(input: {
  roles: readonly TRole[];
  userId: number;
  createdByUserId: number | null;
}): boolean {
  return input.createdByUserId === input.userId || hasRole(input.roles, ...ANNOTATION_ADMIN_ROLES);
}
