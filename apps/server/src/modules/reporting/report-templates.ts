import { and, asc, eq, or, sql } from 'drizzle-orm';
import {
  AppError,
  MESSAGES,
  REPORTING_MESSAGES,
  TEMPLATE_ADMIN_ROLES,
  type TReportTemplate,
  type TReportTemplateQuery,
  type TReportTemplateRequest,
  canChangeTemplate,
  checkTemplateWriter,
  groupFlags,
  hasRole,
  templateFits,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import { reportTemplates, users } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { sanitizeReportHtml } from '../preferences/sanitize-report-html.js';

/*
 * Report templates (issue 7 §1 /template-page): a user's own, and the group's (those its admins
 * keep). Create, edit and delete follow core checkTemplateWriter and canChangeTemplate; the editor's
 * chooser filters with core templateFits. Decisions: DECISIONS.md.
 */

/** Templates whose owner holds one of TEMPLATE_ADMIN_ROLES are the group's. */
const ownerIsGroupAdmin = sql`${users.roles} && ${sql.raw(`array[${TEMPLATE_ADMIN_ROLES.map((r) => `'${r}'`).join(',')}]::text[]`)}`;

function toTemplate(
  row: typeof reportTemplates.$inferSelect,
  owner: string,
  userId: number,
): TReportTemplate {
  return {
    id: row.id,
    name: row.name,
    content: row.contentHtml,
    modalities: row.modalities,
    bodyParts: row.bodyParts,
    gender: row.gender,
    owner,
    isOwn: row.ownerUserId === userId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** GET /report-template/: the caller's and the group's templates that fit the study, by name. */
export async function listTemplates(
  db: DbOrTx,
  auth: TAuth,
  filter: TReportTemplateQuery,
): Promise<TReportTemplate[]> {
  const rows = await db
    .select({ template: reportTemplates, owner: users.email })
    .from(reportTemplates)
    .innerJoin(users, eq(users.id, reportTemplates.ownerUserId))
    .where(
      and(
        eq(reportTemplates.groupId, auth.user.groupId),
        or(eq(reportTemplates.ownerUserId, auth.user.id), ownerIsGroupAdmin),
      ),
    )
    .orderBy(asc(reportTemplates.name), asc(reportTemplates.id));
  return rows
    .filter((r) => templateFits(r.template, filter))
    .map((r) => toTemplate(r.template, r.owner, auth.user.id));
}

async function guardWriter(db: DbOrTx, auth: TAuth): Promise<void> {
  const flags = groupFlags(await loadGroupPreferences(db, auth.user.groupId));
  const refusal = checkTemplateWriter({ roles: auth.roles, flags });
  if (refusal) throw new AppError(refusal.kind, refusal.message, refusal.field);
}

const nameTaken = () => new AppError('CONFLICT', REPORTING_MESSAGES.templateNameTaken, 'name');

async function assertNameFree(tx: Tx, ownerUserId: number, name: string, exceptId?: number) {
  const [same] = await tx
    .select({ id: reportTemplates.id })
    .from(reportTemplates)
    .where(and(eq(reportTemplates.ownerUserId, ownerUserId), eq(reportTemplates.name, name)));
  if (same && same.id !== exceptId) throw nameTaken();
}

const valuesOf = (body: TReportTemplateRequest) => ({
  name: body.name,
  contentHtml: sanitizeReportHtml(body.content),
  modalities: [...new Set(body.modalities)],
  bodyParts: [...new Set(body.bodyParts)],
  gender: body.gender,
});

/** POST /report-template/: a new template of the caller's. */
export async function createTemplate(
  ctx: AppContext,
  auth: TAuth,
  body: TReportTemplateRequest,
): Promise<TReportTemplate> {
  await guardWriter(ctx.db, auth);
  return ctx.db.transaction(async (tx) => {
    // The owner's row lock orders two creations of the same name (the unique index backs it up).
    await tx.select({ id: users.id }).from(users).where(eq(users.id, auth.user.id)).for('update');
    await assertNameFree(tx, auth.user.id, body.name);
    const now = ctx.now();
    const [row] = await tx
      .insert(reportTemplates)
      .values({
        ...valuesOf(body),
        groupId: auth.user.groupId,
        ownerUserId: auth.user.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error('template: insert returned no row');
    return toTemplate(row, auth.user.email, auth.user.id);
  });
}

/** A template of the caller's group, locked, that the caller may change (404 / 403 otherwise). */
async function lockChangeable(tx: Tx, auth: TAuth, id: number) {
  const [row] = await tx
    .select({ template: reportTemplates, owner: users.email })
    .from(reportTemplates)
    .innerJoin(users, eq(users.id, reportTemplates.ownerUserId))
    .where(and(eq(reportTemplates.id, id), eq(reportTemplates.groupId, auth.user.groupId)))
    .for('update', { of: reportTemplates });
  // Group admins manage every template of the group; others see their own and the group's.
  const visible =
    row &&
    (row.template.ownerUserId === auth.user.id ||
      hasRole(auth.roles, ...TEMPLATE_ADMIN_ROLES) ||
      (await isGroupTemplate(tx, row.template.ownerUserId)));
  if (!row || !visible) throw new AppError('NOT_FOUND', MESSAGES.notFound, 'id');
  if (
    !canChangeTemplate({ roles: auth.roles, userId: auth.user.id, ownerUserId: row.template.ownerUserId })
  ) {
    throw new AppError('FORBIDDEN', REPORTING_MESSAGES.templateNotYours, 'id');
  }
  return row;
}

async function isGroupTemplate(db: DbOrTx, ownerUserId: number): Promise<boolean> {
  const [owner] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, ownerUserId), ownerIsGroupAdmin));
  return owner !== undefined;
}

/** PUT /report-template/{id}: by its owner or a group admin; the owner stays. */
export async function updateTemplate(
  ctx: AppContext,
  auth: TAuth,
  id: number,
  body: TReportTemplateRequest,
): Promise<TReportTemplate> {
  await guardWriter(ctx.db, auth);
  return ctx.db.transaction(async (tx) => {
    const { template, owner } = await lockChangeable(tx, auth, id);
    await assertNameFree(tx, template.ownerUserId, body.name, id);
    const [row] = await tx
      .update(reportTemplates)
      .set({ ...valuesOf(body), updatedAt: ctx.now() })
      .where(eq(reportTemplates.id, id))
      .returning();
    if (!row) throw new Error('template: update returned no row');
    return toTemplate(row, owner, auth.user.id);
  });
}

/** DELETE /report-template/{id}: by its owner or a group admin. */
export async function deleteTemplate(ctx: AppContext, auth: TAuth, id: number): Promise<void> {
  await guardWriter(ctx.db, auth);
  await ctx.db.transaction(async (tx) => {
    await lockChangeable(tx, auth, id);
    await tx.delete(reportTemplates).where(eq(reportTemplates.id, id));
  });
}
