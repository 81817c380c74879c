import { type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import { DOCTOR_POOL_STATUSES, type TStudyGrant, type TStudyScope, studyScopeOf } from '@radflow/core';
import { reportStatuses, studies, userMappings, users } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';

/** The study scope of the caller (the rule is in core: `studyScopeOf`). */
export function scopeOfAuth(auth: TAuth): TStudyScope {
  return studyScopeOf({
    id: auth.user.id,
    roles: auth.roles,
    groupId: auth.user.groupId,
    centerId: auth.user.centerId,
    mobileNumber: auth.user.mobileNumber,
    email: auth.user.email,
  });
}

/** The columns of `report_statuses` (or of an alias of it) that the row condition reads. */
type TReportRowTable = Record<
  | 'groupId'
  | 'centerId'
  | 'status'
  | 'assignedToUserId'
  | 'lockedByUserId'
  | 'auditorUserId'
  | 'referringDoctorUserId'
  | 'mobileNumber'
  | 'sharedNumbers'
  | 'sharedEmails',
  AnyPgColumn
>;

/** The users mapped to `userId` under `role` (user_mappings: e.g. a typist's doctors). */
function mappedUserIds(userId: number, role: 'ROLE_DOCTOR' | 'ROLE_CENTER'): SQL {
  return sql`select ${userMappings.mappedUserId} from ${userMappings} where ${userMappings.userId} = ${userId} and ${userMappings.role} = ${role}`;
}

function grantCondition(rs: TReportRowTable, grant: TStudyGrant): SQL {
  switch (grant.kind) {
    case 'group':
      return sql`true`;
    case 'center':
      return sql`${rs.centerId} = ${grant.centerId}`;
    case 'teleCenters': {
      const mappedCenters = sql`select ${users.centerId} from ${users} where ${users.id} in (${mappedUserIds(grant.userId, 'ROLE_CENTER')}) and ${users.centerId} is not null`;
      // Uncorrelated: PostgreSQL evaluates both subqueries once per statement.
      return sql`(${rs.centerId} in (${mappedCenters}) or not exists (${mappedUserIds(grant.userId, 'ROLE_CENTER')}))`;
    }
    case 'assignedTo':
      return sql`(${rs.assignedToUserId} = ${grant.userId} or ${rs.lockedByUserId} = ${grant.userId})`;
    case 'mappedDoctors': {
      const doctors = mappedUserIds(grant.userId, 'ROLE_DOCTOR');
      return sql`(${rs.assignedToUserId} in (${doctors}) or ${rs.lockedByUserId} in (${doctors}))`;
    }
    case 'doctorPool':
      return sql`(${rs.assignedToUserId} is null and ${rs.status} in (${sql.join(
        DOCTOR_POOL_STATUSES.map((s) => sql`${s}`),
        sql`, `,
      )}))`;
    case 'auditor':
      return sql`${rs.auditorUserId} = ${grant.userId}`;
    case 'referringDoctor':
      return sql`${rs.referringDoctorUserId} = ${grant.userId}`;
    case 'customerMobile':
      return sql`(${rs.mobileNumber} = ${grant.mobileNumber} or ${grant.mobileNumber} = any(${rs.sharedNumbers}))`;
    case 'sharedEmail':
      return sql`${grant.email}::text = any(${rs.sharedEmails})`;
  }
}

/**
 * The report rows the caller may see, as a condition on `report_statuses` (or an alias of it): the
 * lists and every study action put it in their WHERE clause, so rows are never fetched first and
 * filtered afterwards and a count, a limit or an existence check cannot leak what the caller may not
 * see. The group test is always there: it bounds every grant and lets the group indexes serve.
 */
export function visibleReportRows(scope: TStudyScope, rs: TReportRowTable = reportStatuses): SQL {
  if (scope.grants.length === 0) return sql`false`;
  const group = sql`${rs.groupId} = ${scope.groupId}`;
  if (scope.grants.some((g) => g.kind === 'group')) return group;
  const anyGrant = sql.join(
    scope.grants.map((g) => grantCondition(rs, g)),
    sql` or `,
  );
  return sql`(${group} and (${anyGrant}))`;
}

const accessRow = alias(reportStatuses, 'access_rs');
/** An alias in a raw fragment renders as its bare name; the FROM item needs the table too. */
const accessRowFrom = sql`${reportStatuses} ${sql.identifier('access_rs')}`;

/**
 * The archive studies the caller may see, as a condition on `studies` that every archive query puts
 * in its WHERE clause (issue 3 §4): a study is visible when one of its report rows is
 * (`visibleReportRows`, the one access rule). A split study has several rows; seeing one is enough to
 * see the images. Group-wide callers skip the subquery so the (group, UID) index serves alone.
 */
export function visibleStudies(scope: TStudyScope): SQL {
  if (scope.grants.length === 0) return sql`false`;
  const group = sql`${studies.groupId} = ${scope.groupId}`;
  if (scope.grants.some((g) => g.kind === 'group')) return group;
  return sql`(${group} and exists (select 1 from ${accessRowFrom} where ${accessRow.studyId} = ${studies.id} and ${visibleReportRows(scope, accessRow)}))`;
}
