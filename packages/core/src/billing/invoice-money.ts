import { percentOfMinor } from './money.js';

/*
 * An invoice's arithmetic (issue 26 §1): subtotal = the lines' amounts; adjustments are signed amounts
 * with a reason; GST = the one rounding rule over (subtotal + adjustments) at the billing details'
 * percentage; total = taxable + GST. A credit note uses the same function over its (negative) lines.
 */

export interface TInvoiceFigures {
  subtotalMinor: number;
  adjustmentMinor: number;
  taxBasisPoints: number;
  taxMinor: number;
  totalMinor: number;
}

export function invoiceFigures(
  lineAmountsMinor: readonly number[],
  adjustmentsMinor: readonly number[],
  taxBasisPoints: number,
): TInvoiceFigures {
  const subtotalMinor = lineAmountsMinor.reduce((a, b) => a + b, 0);
  const adjustmentMinor = adjustmentsMinor.reduce((a, b) => a + b, 0);
  const taxMinor = percentOfMinor(subtotalMinor + adjustmentMinor, taxBasisPoints);
  return {
    subtotalMinor,
    adjustmentMinor,
    taxBasisPoints,
    taxMinor,
    totalMinor: subtotalMinor + adjustmentMinor + taxMinor,
  };
}

/** What is still owed on an invoice: total − paid − credited (never below 0). */
export function outstandingMinor(doc: {
  totalMinor: number;
  paidMinor: number;
  creditedMinor: number;
}): number {
  return Math.max(0, doc.totalMinor - doc.paidMinor - doc.creditedMinor);
}

/** The status an invoice's paid and credited amounts give it. */
export function invoiceStatusOf(doc: {
  totalMinor: number;
  paidMinor: number;
  creditedMinor: number;
}): 'ISSUED' | 'PARTIALLY_PAID' | 'PAID' | 'CANCELLED_BY_CREDIT' {
  if (doc.creditedMinor > 0 && doc.creditedMinor >= doc.totalMinor) return 'CANCELLED_BY_CREDIT';
  if (outstandingMinor(doc) === 0) return 'PAID';
  if (doc.paidMinor > 0) return 'PARTIALLY_PAID';
  return 'ISSUED';
}

/** `TI-2026-0001`: the kind's prefix, the issue year and the gapless sequence (4 digits at least). */
export function documentNumber(prefix: string, year: number, sequence: number): string {
  return `${prefix}-${year}-${String(sequence).padStart(4, '0')}`;
}

/** The first and last day of a month 'YYYY-MM'. */
export function monthPeriod(month: string): { periodStart: string; periodEnd: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const mm = String(m).padStart(2, '0');
  return { periodStart: `${y}-${mm}-01`, periodEnd: `${y}-${mm}-${String(last).padStart(2, '0')}` };
}
