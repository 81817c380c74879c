import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  AppError,
  type TTelePrice,
  type TTelePriceList,
  type ZAddTelePriceBody,
  type ZCopyDefaultPricesBody,
  minorToRupees,
  priceInForce,
  rupeesToMinor,
  calendarDayIn,
} from '@radflow/core';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { centers, studyTypes, telePrices } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import type { TAuth } from '../../plugins/auth.js';
import { auditBilling, loadGroupBillingFlags, rowsOf } from './ledger-context.js';

/*
 * Manage Tele Pricing (issue 26 §1): the CENTER side of tele_prices. A price is never edited: a
 * change (or a retirement: a later price of 0) is a new row with its effective date.
 */

/** A center of the caller's group, or 404 (another group's center is invisible). */
export async function centerOfGroup(db: DbOrTx, groupId: number, centerId: number) {
  const [center] = await db
    .select({ id: centers.id, name: centers.name, email: centers.email })
    .from(centers)
    .where(and(eq(centers.id, centerId), eq(centers.groupId, groupId)));
  if (!center) throw new AppError('NOT_FOUND', 'Center not found');
  return center;
}

type TPriceRow = typeof telePrices.$inferSelect;

function priceOut(row: TPriceRow, inForce: boolean): TTelePrice {
  return {
    id: row.id,
    centerId: row.centerId,
    modality: row.modality,
    studyPart: row.studyPart,
    charge: row.charge,
    amount: minorToRupees(row.amountMinor),
    currency: row.currency,
    effectiveFrom: row.effectiveFrom,
    createdAt: row.createdAt.toISOString(),
    inForce,
  };
}

/** Which rows of a list are in force on `day`: per (modality, part, charge), core priceInForce over that list alone. */
function inForceIds(rows: readonly TPriceRow[], day: string): Set<number> {
  const ids = new Set<number>();
  const seen = new Set<string>();
  for (const r of rows) {
    const key = `${r.modality}|${r.studyPart}|${r.charge}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const hit = priceInForce(
      rows.map((p) => ({ ...p, ownerId: p.centerId })),
      { ownerId: r.centerId ?? -1, modality: r.modality, studyPart: r.studyPart, charge: r.charge, day },
    );
    // Only an exact (part) hit of this list counts: the base-price fallback is another row's own key.
    if (hit && hit.studyPart === r.studyPart) ids.add(hit.id);
  }
  return ids;
}

export async function listTelePrices(
  ctx: AppContext,
  auth: TAuth,
  centerId: number | undefined,
): Promise<TTelePriceList> {
  const groupId = auth.user.groupId;
  if (centerId !== undefined) await centerOfGroup(ctx.db, groupId, centerId);
  const [rows, centerRows, parts, flags] = await Promise.all([
    ctx.db
      .select()
      .from(telePrices)
      .where(
        and(
          eq(telePrices.groupId, groupId),
          eq(telePrices.side, 'CENTER'),
          centerId === undefined ? isNull(telePrices.centerId) : eq(telePrices.centerId, centerId),
        ),
      )
      .orderBy(
        asc(telePrices.modality),
        asc(telePrices.studyPart),
        asc(telePrices.charge),
        desc(telePrices.effectiveFrom),
      ),
    ctx.db
      .select({ id: centers.id, name: centers.name })
      .from(centers)
      .where(eq(centers.groupId, groupId))
      .orderBy(asc(centers.name), asc(centers.id)),
    ctx.db
      .select({ name: studyTypes.name })
      .from(studyTypes)
      .where(eq(studyTypes.groupId, groupId))
      .orderBy(asc(studyTypes.name)),
    loadGroupBillingFlags(ctx.db, groupId),
  ]);
  const live = inForceIds(rows, calendarDayIn(ctx.now(), flags.displayTimeZone));
  return {
    centers: centerRows,
    prices: rows.map((r) => priceOut(r, live.has(r.id))),
    studyParts: parts.map((p) => p.name),
  };
}

const DUPLICATE_PRICE =
  'A price for this modality, study part and charge already starts on that date; add one with another date';

export async function addTelePrice(
  ctx: AppContext,
  auth: TAuth,
  body: z.output<typeof ZAddTelePriceBody>,
): Promise<TTelePrice> {
  const groupId = auth.user.groupId;
  if (body.centerId !== null) await centerOfGroup(ctx.db, groupId, body.centerId);
  try {
    return await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(telePrices)
        .values({
          groupId,
          side: 'CENTER',
          centerId: body.centerId,
          modality: body.modality,
          studyPart: body.studyPart,
          charge: body.charge,
          amountMinor: rupeesToMinor(body.amount),
          effectiveFrom: body.effectiveFrom,
          createdByUserId: auth.user.id,
        })
        .returning();
      if (!row) throw new Error('price not inserted');
      await auditBilling(tx, {
        groupId,
        entity: 'PRICE',
        entityId: row.id,
        action: 'PRICE_ADDED',
        actorUserId: auth.user.id,
        detail: {
          centerId: row.centerId,
          modality: row.modality,
          studyPart: row.studyPart,
          charge: row.charge,
          amountMinor: row.amountMinor,
          effectiveFrom: row.effectiveFrom,
        },
      });
      return priceOut(row, false);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', DUPLICATE_PRICE);
    throw error;
  }
}

/**
 * Copies the default list's prices in force on `effectiveFrom` to a center, effective that day: one
 * INSERT … SELECT; rows the center already has for that day are left as they are.
 */
export async function copyDefaultPrices(
  ctx: AppContext,
  auth: TAuth,
  body: z.output<typeof ZCopyDefaultPricesBody>,
): Promise<{ copied: number }> {
  const groupId = auth.user.groupId;
  await centerOfGroup(ctx.db, groupId, body.centerId);
  return ctx.db.transaction(async (tx) => {
    const result = await rowsOf<{ id: number }>(
      tx,
      sql`
      insert into tele_prices (group_id, side, center_id, modality, study_part, charge, amount_minor, currency, effective_from, created_by_user_id)
      select distinct on (modality, study_part, charge)
        group_id, 'CENTER', ${body.centerId}::int, modality, study_part, charge, amount_minor, currency, ${body.effectiveFrom}::date, ${auth.user.id}::int
      from tele_prices
      where group_id = ${groupId} and side = 'CENTER' and center_id is null and effective_from <= ${body.effectiveFrom}::date
      order by modality, study_part, charge, effective_from desc, id desc
      on conflict on constraint tele_prices_key do nothing
      returning id`,
    );
    const copied = result.length;
    await auditBilling(tx, {
      groupId,
      entity: 'PRICE',
      entityId: body.centerId,
      action: 'DEFAULT_PRICES_COPIED',
      actorUserId: auth.user.id,
      detail: { centerId: body.centerId, effectiveFrom: body.effectiveFrom, copied },
    });
    return { copied };
  });
}
