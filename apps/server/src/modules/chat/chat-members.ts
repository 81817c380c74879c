import { and, eq, inArray } from 'drizzle-orm';
import {
  AppError,
  CHAT_MESSAGES,
  type TChatMember,
  type TChatReference,
  type TChatReferenceInput,
  type TRole,
  chatMemberTypeOf,
  isChatMemberOf,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { instances, reportStatuses, series, studies, studyAttachments, users } from '../../db/schema.js';

/** The facts of a row the conversation's membership reads. */
export type TChatRow = { id: number; studyId: number; groupId: number; centerId: number };

/**
 * The people in a row's conversation (core `isChatMemberOf`): its centre staff, its assigned
 * doctor, the group's routers and admins; active accounts of the row's group, by name. The caller
 * is left out (one does not mention oneself).
 */
export async function chatMembersOf(db: DbOrTx, row: TChatRow, callerId: number): Promise<TChatMember[]> {
  const [facts] = await db
    .select({ assignedToUserId: reportStatuses.assignedToUserId })
    .from(reportStatuses)
    .where(eq(reportStatuses.id, row.id));
  const people = await db
    .select({
      id: users.id,
      email: users.email,
      identifier: users.identifier,
      roles: users.roles,
      centerId: users.centerId,
    })
    .from(users)
    .where(and(eq(users.groupId, row.groupId), eq(users.active, true)));
  const rowFacts = { centerId: row.centerId, assignedToUserId: facts?.assignedToUserId ?? null };
  return people
    .filter((p) => p.id !== callerId)
    .map((p) => ({ ...p, roles: p.roles as TRole[] }))
    .filter((p) => isChatMemberOf(p, rowFacts))
    .map((p) => ({
      userId: p.id,
      email: p.email,
      name: p.identifier || p.email,
      memberType: chatMemberTypeOf(p.roles),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Every mentioned id must be in the row's conversation: 400 naming `mentions` otherwise. */
export async function checkMentions(
  db: DbOrTx,
  row: TChatRow,
  callerId: number,
  mentions: readonly number[],
): Promise<void> {
  if (mentions.length === 0) return;
  const members = new Set((await chatMembersOf(db, row, callerId)).map((m) => m.userId));
  if (mentions.some((id) => !members.has(id))) {
    throw new AppError('BAD_REQUEST', CHAT_MESSAGES.notMember, 'mentions');
  }
}

/**
 * The reference as stored and answered, if it is the row's: one of its attachments, or an instance
 * (and an existing frame) of its study. 400 naming `reference` otherwise, the same whether the
 * other file exists or not.
 */
export async function resolveReference(
  db: DbOrTx,
  row: TChatRow,
  input: TChatReferenceInput,
): Promise<TChatReference> {
  const refused = () => new AppError('BAD_REQUEST', CHAT_MESSAGES.notThisStudy, 'reference');
  if (input.kind === 'attachment') {
    const [file] = await db
      .select({
        id: studyAttachments.id,
        kind: studyAttachments.kind,
        path: studyAttachments.path,
        fileName: studyAttachments.fileName,
      })
      .from(studyAttachments)
      .where(and(eq(studyAttachments.id, input.attachmentId), eq(studyAttachments.reportStatusId, row.id)));
    if (!file) throw refused();
    return {
      kind: 'attachment',
      attachmentId: file.id,
      attachmentKind: file.kind,
      path: file.path,
      fileName: file.fileName,
    };
  }
  const [image] = await db
    .select({
      frames: instances.numberOfFrames,
      seriesInstanceUid: series.seriesInstanceUid,
      studyInstanceUid: studies.studyInstanceUid,
    })
    .from(instances)
    .innerJoin(series, eq(series.id, instances.seriesId))
    .innerJoin(studies, eq(studies.id, instances.studyId))
    .where(and(eq(instances.studyId, row.studyId), eq(instances.sopInstanceUid, input.sopInstanceUid)));
  if (!image || input.frame > image.frames) throw refused();
  return {
    kind: 'image',
    sopInstanceUid: input.sopInstanceUid,
    seriesInstanceUid: image.seriesInstanceUid,
    studyInstanceUid: image.studyInstanceUid,
    frame: input.frame,
  };
}

/** The names the messages' mentions show (display name, else e-mail), by user id. */
export async function mentionNames(db: DbOrTx, ids: readonly number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, identifier: users.identifier, email: users.email })
    .from(users)
    .where(inArray(users.id, unique));
  return new Map(rows.map((r) => [r.id, r.identifier || r.email]));
}
