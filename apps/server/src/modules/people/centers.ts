import { and, asc, eq, ne, sql } from 'drizzle-orm';
import {
  AppError,
  MESSAGE_NO_SUCH_CENTER,
  type TCenter,
  type TCenterInput,
  aeTitleKey,
  aeTitleRepeatedMessage,
  aeTitleTakenMessage,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { centers } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { aeTitlesChanged } from '../archive/ae-titles.js';
import { recordPeopleChange } from './people-audit.js';

type TCenterRow = typeof centers.$inferSelect;

/**
 * One lock for every AE title write: the titles live in an array column, which no unique index can
 * cover, so two admins adding the same title at once are serialised here and the second sees the
 * first's (PostgreSQL and PGlite alike).
 */
const AE_TITLE_LOCK_KEY = 2_100_021;

function toCenter(row: TCenterRow): TCenter {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    aeTitles: row.aeTitles,
    contactName: row.contactName,
    contactMobile: row.contactMobile,
    region: row.region,
    createdAt: row.createdAt.toISOString(),
  };
}

/** What the audit keeps of a center. */
const auditedFields = (
  c: Pick<TCenterRow, 'name' | 'email' | 'aeTitles' | 'contactName' | 'contactMobile' | 'region'>,
) => ({
  name: c.name,
  email: c.email,
  aeTitles: c.aeTitles,
  contactName: c.contactName,
  contactMobile: c.contactMobile,
  region: c.region,
});

export async function listCenters(db: DbOrTx, auth: TAuth): Promise<TCenter[]> {
  const rows = await db
    .select()
    .from(centers)
    .where(eq(centers.groupId, auth.user.groupId))
    .orderBy(asc(centers.name), asc(centers.id));
  return rows.map(toCenter);
}

/**
 * An AE title names one center in the whole deployment (the DICOM port maps a calling AE title to
 * its center whatever the group): 409 when the input lists one twice or another center has it, in
 * any case (core aeTitleKey).
 */
async function assertAeTitlesFree(tx: DbOrTx, aeTitles: readonly string[], ownCenterId: number | null) {
  const seen = new Set<string>();
  for (const ae of aeTitles) {
    if (seen.has(aeTitleKey(ae))) throw new AppError('CONFLICT', aeTitleRepeatedMessage(ae), 'aeTitles');
    seen.add(aeTitleKey(ae));
  }
  if (aeTitles.length === 0) return;
  await tx.execute(sql`select pg_advisory_xact_lock(${AE_TITLE_LOCK_KEY})`);
  const keys = [...seen];
  const others = await tx
    .select({ aeTitles: centers.aeTitles })
    .from(centers)
    .where(
      and(
        ownCenterId === null ? undefined : ne(centers.id, ownCenterId),
        sql`exists (select 1 from unnest(${centers.aeTitles}) a where upper(btrim(a)) in (${sql.join(
          keys.map((k) => sql`${k}`),
          sql`, `,
        )}))`,
      ),
    );
  const taken = new Set(others.flatMap((c) => c.aeTitles.map(aeTitleKey)));
  const clash = aeTitles.find((ae) => taken.has(aeTitleKey(ae)));
  if (clash) throw new AppError('CONFLICT', aeTitleTakenMessage(clash), 'aeTitles');
}

/** POST /api/admin/centers: a new center of the admin's group, with its audit line. */
export async function createCenter(ctx: AppContext, auth: TAuth, input: TCenterInput): Promise<TCenter> {
  const now = ctx.now();
  const center = await ctx.db.transaction(async (tx) => {
    await assertAeTitlesFree(tx, input.aeTitles, null);
    const [row] = await tx
      .insert(centers)
      .values({
        groupId: auth.user.groupId,
        name: input.name,
        email: input.email,
        aeTitles: input.aeTitles,
        contactName: input.contactName,
        contactMobile: input.contactMobile,
        region: input.region ?? '',
        createdAt: now,
      })
      .returning();
    if (!row) throw new Error('center not stored');
    await recordPeopleChange(tx, {
      groupId: auth.user.groupId,
      action: 'CENTER_CREATED',
      actor: auth.user,
      targetType: 'CENTER',
      targetId: row.id,
      detail: { after: auditedFields(row) },
      at: now,
    });
    return toCenter(row);
  });
  // The DICOM port's memory of AE titles: the next association sees the change.
  aeTitlesChanged();
  return center;
}

/** PUT /api/admin/centers/{id}: 404 for a center outside the admin's group; the audit keeps before and after. */
export async function updateCenter(
  ctx: AppContext,
  auth: TAuth,
  centerId: number,
  input: TCenterInput,
): Promise<TCenter> {
  const now = ctx.now();
  const center = await ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(centers)
      .where(and(eq(centers.id, centerId), eq(centers.groupId, auth.user.groupId)))
      .for('update');
    if (!before) throw new AppError('NOT_FOUND', MESSAGE_NO_SUCH_CENTER);
    await assertAeTitlesFree(tx, input.aeTitles, centerId);
    const [row] = await tx
      .update(centers)
      .set({
        name: input.name,
        email: input.email,
        aeTitles: input.aeTitles,
        contactName: input.contactName,
        contactMobile: input.contactMobile,
        ...(input.region === undefined ? {} : { region: input.region }),
      })
      .where(eq(centers.id, centerId))
      .returning();
    if (!row) throw new Error('center not updated');
    await recordPeopleChange(tx, {
      groupId: auth.user.groupId,
      action: 'CENTER_UPDATED',
      actor: auth.user,
      targetType: 'CENTER',
      targetId: row.id,
      detail: { before: auditedFields(before), after: auditedFields(row) },
      at: now,
    });
    return toCenter(row);
  });
  // The DICOM port's memory of AE titles: the next association sees the change.
  aeTitlesChanged();
  return center;
}
