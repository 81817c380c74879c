import { eq } from 'drizzle-orm';
import {
  AppError,
  type TPlatformPlan,
  type ZCreatePlanBody,
  type ZPlanTermsBody,
  toPaise,
  toRupees,
} from '@radflow/core';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { platformPlans } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { auditPlatformBilling } from './audit.js';

export const PLAN_MESSAGES = {
  notFound: 'Plan not found',
  duplicateCode: 'A plan with this code exists',
  trialStaysTrial:
    'A trial plan keeps trial days above 0, and a paid plan keeps 0 (choose another plan instead)',
} as const;

type TPlanRow = typeof platformPlans.$inferSelect;

export const planOut = (p: TPlanRow): TPlatformPlan => ({
  id: p.id,
  code: p.code,
  name: p.name,
  kind: p.kind,
  monthlyFee: toRupees(p.monthlyFeeMinor),
  includedStudies: p.includedStudies,
  perStudyPrice: toRupees(p.perStudyMinor),
  trialDays: p.trialDays,
  currency: p.currency,
  active: p.active,
});

const termsOf = (body: z.output<typeof ZPlanTermsBody>) => ({
  name: body.name,
  monthlyFeeMinor: toPaise(body.monthlyFee),
  includedStudies: body.includedStudies,
  perStudyMinor: toPaise(body.perStudyPrice),
  trialDays: body.trialDays,
  active: body.active,
});

/** A new plan (admin biller): its code is unique (409), its code and kind never change. */
export async function createPlan(
  db: Db,
  body: z.output<typeof ZCreatePlanBody>,
  actorEmail: string,
): Promise<TPlatformPlan> {
  try {
    return await db.transaction(async (tx) => {
      const [plan] = await tx
        .insert(platformPlans)
        .values({ code: body.code, kind: body.kind, ...termsOf(body) })
        .returning();
      if (!plan) throw new Error('plan not inserted');
      await auditPlatformBilling(tx, {
        groupId: null,
        entity: 'PLAN',
        entityId: plan.id,
        action: 'CREATED',
        actorEmail,
        detail: { ...planOut(plan) },
      });
      return planOut(plan);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', PLAN_MESSAGES.duplicateCode, 'code');
    throw error;
  }
}

/**
 * New terms of a plan (admin biller). They apply to invoices issued from now on: an issued invoice
 * copied the plan's name, fee, included volume and per-study price when it was issued, so nothing
 * past is rewritten. A trial stays a trial (trial days > 0) and a paid plan stays paid: switching
 * would silently start or stop invoicing every group on it.
 */
export async function updatePlanTerms(
  db: Db,
  planId: number,
  body: z.output<typeof ZPlanTermsBody>,
  actorEmail: string,
): Promise<TPlatformPlan> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(platformPlans).where(eq(platformPlans.id, planId)).for('update');
    if (!before) throw new AppError('NOT_FOUND', PLAN_MESSAGES.notFound, 'planId');
    if (before.trialDays > 0 !== body.trialDays > 0) {
      throw new AppError('BAD_REQUEST', PLAN_MESSAGES.trialStaysTrial, 'trialDays');
    }
    const [plan] = await tx
      .update(platformPlans)
      .set(termsOf(body))
      .where(eq(platformPlans.id, planId))
      .returning();
    if (!plan) throw new Error('plan not updated');
    await auditPlatformBilling(tx, {
      groupId: null,
      entity: 'PLAN',
      entityId: plan.id,
      action: 'UPDATED',
      actorEmail,
      detail: { before: planOut(before), after: planOut(plan) },
    });
    return planOut(plan);
  });
}
