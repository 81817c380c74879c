import { and, eq, sql } from 'drizzle-orm';
import { AppError, billLineStudyRefusal } from '@radflow/core';
import type { Tx } from '../../db/client.js';
import { labAuditEvents, labBillTests, labBills } from '../../db/schema.js';

/**
 * A study made for a bill line (Create Study from the bill, lab-worklist DECISIONS.md): the line must
 * be of the study's center's lab (CENTER scope, that center, its group) and pass core's
 * `billLineStudyRefusal` (no study yet; bill and line not cancelled, line not refunded whole).
 * Images that arrive with the line's accession number link themselves in the index writer's
 * statement (db/instance-index.ts `lab_line`) on the first two conditions only: a scan that was
 * made is a fact the line shows, whatever its bill's state.
 */

export interface TBillLineForStudy {
  id: number;
  studyInstanceUid: string;
  accessionNumber: string;
}

/**
 * The line, locked for the caller's transaction; 404 when it is not of the center's lab (another
 * lab's line is never acknowledged), 409 with core's reason when it may not get one (billLineStudyRefusal).
 */
export async function lockBillLineForStudy(
  tx: Tx,
  center: { groupId: number; centerId: number },
  lineId: number,
): Promise<TBillLineForStudy> {
  const [line] = await tx
    .select({
      id: labBillTests.id,
      studyInstanceUid: labBillTests.studyInstanceUid,
      accessionNumber: labBillTests.accessionNumber,
      studyId: labBillTests.studyId,
      settlementStatus: labBillTests.settlementStatus,
      billStatus: labBills.status,
    })
    .from(labBillTests)
    .innerJoin(labBills, eq(labBills.id, labBillTests.billId))
    .where(
      and(
        eq(labBillTests.id, lineId),
        eq(labBills.groupId, center.groupId),
        eq(labBills.labScope, 'CENTER'),
        eq(labBills.labOwnerId, center.centerId),
      ),
    )
    .for('update', { of: labBillTests });
  if (!line) throw new AppError('NOT_FOUND', 'Bill test not found', 'labBillTestId');
  const refusal = billLineStudyRefusal(line.billStatus, line);
  if (refusal !== null) throw new AppError('CONFLICT', refusal, 'labBillTestId');
  return { id: line.id, studyInstanceUid: line.studyInstanceUid, accessionNumber: line.accessionNumber };
}

/** Points the locked line at its new study (not through the worklist) with its audit row. */
export async function linkBillLineToStudy(
  tx: Tx,
  center: { groupId: number; centerId: number },
  line: TBillLineForStudy,
  studyId: number,
  actorEmail: string,
): Promise<void> {
  await tx
    .update(labBillTests)
    .set({ studyId, uploadedThroughWorkList: false })
    .where(and(eq(labBillTests.id, line.id), sql`${labBillTests.studyId} is null`));
  await tx.insert(labAuditEvents).values({
    groupId: center.groupId,
    labScope: 'CENTER',
    labOwnerId: center.centerId,
    entity: 'BILL_TEST',
    entityId: line.id,
    action: 'STUDY_LINKED',
    actorEmail,
    detail: { studyId, source: 'WEBSITE', uploadedThroughWorkList: false },
  });
}
