import { percentOfMinor } from '../billing/money.js';
import { PLATFORM_GST_BASIS_POINTS, type TPlanKind } from './rules.js';

/** A plan's prices, paise (platform_plans). */
export interface TPlanPrices {
  kind: TPlanKind;
  monthlyFeeMinor: number;
  includedStudies: number;
  /** PER_STUDY: the price of every study; SUBSCRIPTION: the price of each study above the included. */
  perStudyMinor: number;
}

export interface TPlatformInvoiceAmounts {
  studiesCounted: number;
  /** Studies charged per study: all on PER_STUDY, those above the included volume on SUBSCRIPTION. */
  studiesCharged: number;
  feeMinor: number;
  usageMinor: number;
  subtotalMinor: number;
  gstBasisPoints: number;
  gstMinor: number;
  totalMinor: number;
}

/**
 * The one rule of a platform invoice's amounts: the month's fee plus the charged studies, GST on the
 * subtotal (rounded once, on the whole), total = subtotal + GST. The PDF and every list print these.
 */
export function platformInvoiceAmounts(
  plan: TPlanPrices,
  studiesCounted: number,
  gstBasisPoints = PLATFORM_GST_BASIS_POINTS,
): TPlatformInvoiceAmounts {
  if (!Number.isInteger(studiesCounted) || studiesCounted < 0) {
    throw new Error('studiesCounted: a whole number ≥ 0');
  }
  const feeMinor = plan.kind === 'SUBSCRIPTION' ? plan.monthlyFeeMinor : 0;
  const studiesCharged =
    plan.kind === 'PER_STUDY' ? studiesCounted : Math.max(0, studiesCounted - plan.includedStudies);
  const usageMinor = studiesCharged * plan.perStudyMinor;
  const subtotalMinor = feeMinor + usageMinor;
  const gstMinor = percentOfMinor(subtotalMinor, gstBasisPoints);
  return {
    studiesCounted,
    studiesCharged,
    feeMinor,
    usageMinor,
    subtotalMinor,
    gstBasisPoints,
    gstMinor,
    totalMinor: subtotalMinor + gstMinor,
  };
}

/** What is still owed on an invoice (never below zero). */
export function platformInvoiceDueMinor(totalMinor: number, paidMinor: number): number {
  return Math.max(0, totalMinor - paidMinor);
}
