import { type SQL, sql } from 'drizzle-orm';
import { type TStudyScope, studyScopeOf } from '@radflow/core';
import { reportStatuses, studies } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';

/** The study scope of the caller (the rule is in core: `studyScopeOf`). */
export function scopeOfAuth(auth: TAuth): TStudyScope {
  return studyScopeOf({ roles: auth.roles, groupId: auth.user.groupId, centerId: auth.user.centerId });
}

/**
 * The studies the caller may see, as a condition on `studies` that every archive query puts in its
 * WHERE clause (issue 3 §4): rows are never fetched first and filtered afterwards, so a count, a
 * limit or an existence check cannot leak what the caller may not see.
 */
export function visibleStudies(scope: TStudyScope): SQL {
  switch (scope.kind) {
    case 'group':
      return sql`${studies.groupId} = ${scope.groupId}`;
    case 'center':
      // A study belongs to a center through its report rows (a split study may have several). The
      // group test only narrows (a center is in its user's group) and lets the (group, UID) index serve.
      return sql`(${studies.groupId} = ${scope.groupId} and exists (select 1 from ${reportStatuses} where ${reportStatuses.studyId} = ${studies.id} and ${reportStatuses.centerId} = ${scope.centerId}))`;
    case 'none':
      return sql`false`;
  }
}
