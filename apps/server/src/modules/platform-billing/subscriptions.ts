import { and, eq, sql } from 'drizzle-orm';
import {
  AppError,
  TRIAL_PLAN_CODE,
  type TPlatformSubscription,
  addMonths,
  effectiveSubscriptionStatus,
  isSubscriptionExpired,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { groupSubscriptions, groups, platformPlans } from '../../db/schema.js';
import { auditPlatformBilling } from './audit.js';

/*
 * A group's one current subscription: which plan, TRIAL/ACTIVE/EXPIRED/CANCELLED, paid through when.
 * Every change locks the row, checks the version read by the caller (409 when stale), writes and
 * audits in the caller's transaction.
 */

export const SUBSCRIPTION_MESSAGES = {
  groupNotFound: 'Group not found',
  planNotFound: 'Plan not found',
  noSubscription: 'The group has no subscription; choose a plan first',
  stale: 'The subscription was changed by someone else; reload and try again',
} as const;

const DAY_MS = 24 * 3600 * 1000;

type TSubRow = typeof groupSubscriptions.$inferSelect;

/** The subscription of a group as the API shows it (status EXPIRED once the date passed). */
export async function readSubscription(
  db: DbOrTx,
  groupId: number,
  now: Date,
): Promise<TPlatformSubscription | null> {
  const [row] = await db
    .select({ sub: groupSubscriptions, plan: platformPlans })
    .from(groupSubscriptions)
    .innerJoin(platformPlans, eq(platformPlans.id, groupSubscriptions.planId))
    .where(eq(groupSubscriptions.groupId, groupId));
  return row ? subscriptionOut(row.sub, row.plan, now) : null;
}

export function subscriptionOut(
  sub: Pick<TSubRow, 'status' | 'startedAt' | 'expiresAt' | 'version'>,
  plan: Pick<typeof platformPlans.$inferSelect, 'code' | 'name' | 'kind'>,
  now: Date,
): TPlatformSubscription {
  return {
    planCode: plan.code,
    planName: plan.name,
    planKind: plan.kind,
    status: effectiveSubscriptionStatus(sub, now),
    startedAt: sub.startedAt.toISOString(),
    expiresAt: sub.expiresAt?.toISOString() ?? null,
    version: sub.version,
  };
}

/**
 * The banner's flag for the users of a group (spec-core §2 shell): one indexed read of the group's
 * subscription row, asked on every session start.
 */
export async function subscriptionExpired(db: DbOrTx, groupId: number, now: Date): Promise<boolean> {
  const [sub] = await db
    .select({ status: groupSubscriptions.status, expiresAt: groupSubscriptions.expiresAt })
    .from(groupSubscriptions)
    .where(eq(groupSubscriptions.groupId, groupId));
  return isSubscriptionExpired(sub ?? null, now);
}

async function planByCode(tx: DbOrTx, code: string) {
  const [plan] = await tx.select().from(platformPlans).where(eq(platformPlans.code, code));
  if (!plan || !plan.active) throw new AppError('NOT_FOUND', SUBSCRIPTION_MESSAGES.planNotFound, 'planCode');
  return plan;
}

/**
 * A new group's trial (issue 26 §4 sign-up calls this in its transaction): the TRIAL plan for its
 * trial days from `now`. A group that already has a subscription keeps it (a repeated sign-up step
 * changes nothing).
 */
export async function startTrial(
  tx: DbOrTx,
  groupId: number,
  now: Date,
  actorEmail = 'signup',
): Promise<TPlatformSubscription> {
  const plan = await planByCode(tx, TRIAL_PLAN_CODE);
  const [inserted] = await tx
    .insert(groupSubscriptions)
    .values({
      groupId,
      planId: plan.id,
      status: 'TRIAL',
      startedAt: now,
      expiresAt: new Date(now.getTime() + plan.trialDays * DAY_MS),
      updatedBy: actorEmail,
    })
    .onConflictDoNothing({ target: groupSubscriptions.groupId })
    .returning();
  if (inserted) {
    await auditPlatformBilling(tx, {
      groupId,
      entity: 'SUBSCRIPTION',
      entityId: inserted.id,
      action: 'TRIAL_STARTED',
      actorEmail,
      detail: { plan: plan.code, expiresAt: inserted.expiresAt?.toISOString() },
    });
  }
  const sub = await readSubscription(tx, groupId, now);
  if (!sub) throw new Error('startTrial: no subscription after insert');
  return sub;
}

async function lockGroupSubscription(tx: DbOrTx, groupId: number): Promise<TSubRow | null> {
  const [group] = await tx.select({ id: groups.id }).from(groups).where(eq(groups.id, groupId));
  if (!group) throw new AppError('NOT_FOUND', SUBSCRIPTION_MESSAGES.groupNotFound, 'groupId');
  const [row] = await tx
    .select()
    .from(groupSubscriptions)
    .where(eq(groupSubscriptions.groupId, groupId))
    .for('update');
  return row ?? null;
}

function checkVersion(row: TSubRow | null, version: number | null): void {
  if ((row?.version ?? null) !== version) {
    throw new AppError('CONFLICT', SUBSCRIPTION_MESSAGES.stale, 'version');
  }
}

async function writeSubscription(
  tx: DbOrTx,
  row: TSubRow,
  changes: Partial<Pick<TSubRow, 'planId' | 'status' | 'expiresAt' | 'startedAt'>>,
  actorEmail: string,
): Promise<void> {
  // The version in the WHERE too: a writer that did not lock still cannot overwrite.
  const updated = await tx
    .update(groupSubscriptions)
    .set({ ...changes, updatedBy: actorEmail, updatedAt: sql`now()`, version: row.version + 1 })
    .where(and(eq(groupSubscriptions.id, row.id), eq(groupSubscriptions.version, row.version)))
    .returning({ id: groupSubscriptions.id });
  if (updated.length !== 1) throw new AppError('CONFLICT', SUBSCRIPTION_MESSAGES.stale, 'version');
}

/**
 * Puts a group on a plan. A trial plan starts a trial from now; another plan keeps the paid-through
 * date (a change of plan is not a payment) and a group new to billing gets one month from now,
 * ACTIVE, to pay its first invoice in.
 */
export async function changePlan(
  tx: DbOrTx,
  input: { groupId: number; planCode: string; version: number | null; actorEmail: string; now: Date },
): Promise<TPlatformSubscription> {
  const { groupId, now, actorEmail } = input;
  const plan = await planByCode(tx, input.planCode);
  const row = await lockGroupSubscription(tx, groupId);
  checkVersion(row, input.version);
  const trial = plan.trialDays > 0;
  const expiresAt = trial
    ? new Date(now.getTime() + plan.trialDays * DAY_MS)
    : row?.expiresAt && row.status !== 'TRIAL'
      ? row.expiresAt
      : addMonths(now, 1);
  let id: number;
  if (!row) {
    const [inserted] = await tx
      .insert(groupSubscriptions)
      .values({
        groupId,
        planId: plan.id,
        status: trial ? 'TRIAL' : 'ACTIVE',
        startedAt: now,
        expiresAt,
        updatedBy: actorEmail,
      })
      .returning({ id: groupSubscriptions.id });
    if (!inserted) throw new Error('subscription not inserted');
    id = inserted.id;
  } else {
    const status = trial
      ? 'TRIAL'
      : isSubscriptionExpired({ status: row.status === 'TRIAL' ? 'ACTIVE' : row.status, expiresAt }, now)
        ? 'EXPIRED'
        : 'ACTIVE';
    await writeSubscription(tx, row, { planId: plan.id, status, expiresAt }, actorEmail);
    id = row.id;
  }
  await auditPlatformBilling(tx, {
    groupId,
    entity: 'SUBSCRIPTION',
    entityId: id,
    action: 'PLAN_CHANGED',
    actorEmail,
    detail: { plan: plan.code, expiresAt: expiresAt.toISOString() },
  });
  return (await readSubscription(tx, groupId, now))!;
}

/** Extends the paid-through date by whole months (from the later of now and the date), ACTIVE. */
export async function extendSubscription(
  tx: DbOrTx,
  input: { groupId: number; months: number; version: number | null; actorEmail: string; now: Date },
  action = 'EXTENDED',
): Promise<TPlatformSubscription> {
  const row = await lockGroupSubscription(tx, input.groupId);
  if (!row) throw new AppError('BAD_REQUEST', SUBSCRIPTION_MESSAGES.noSubscription, 'groupId');
  if (input.version !== null) checkVersion(row, input.version);
  const from = row.expiresAt && row.expiresAt.getTime() > input.now.getTime() ? row.expiresAt : input.now;
  const expiresAt = addMonths(from, input.months);
  await writeSubscription(tx, row, { status: 'ACTIVE', expiresAt }, input.actorEmail);
  await auditPlatformBilling(tx, {
    groupId: input.groupId,
    entity: 'SUBSCRIPTION',
    entityId: row.id,
    action,
    actorEmail: input.actorEmail,
    detail: { months: input.months, from: row.expiresAt?.toISOString() ?? null, to: expiresAt.toISOString() },
  });
  return (await readSubscription(tx, input.groupId, input.now))!;
}

/** Ends a subscription now: EXPIRED, paid through now (the banner shows from the next session). */
export async function expireSubscription(
  tx: DbOrTx,
  input: { groupId: number; version: number; actorEmail: string; now: Date },
): Promise<TPlatformSubscription> {
  const row = await lockGroupSubscription(tx, input.groupId);
  if (!row) throw new AppError('BAD_REQUEST', SUBSCRIPTION_MESSAGES.noSubscription, 'groupId');
  checkVersion(row, input.version);
  await writeSubscription(tx, row, { status: 'EXPIRED', expiresAt: input.now }, input.actorEmail);
  await auditPlatformBilling(tx, {
    groupId: input.groupId,
    entity: 'SUBSCRIPTION',
    entityId: row.id,
    action: 'EXPIRED',
    actorEmail: input.actorEmail,
    detail: { was: row.expiresAt?.toISOString() ?? null },
  });
  return (await readSubscription(tx, input.groupId, input.now))!;
}
