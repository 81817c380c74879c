import { formatRupees, monthPeriod, rupeesToMinor } from '@radflow/core';

/** The month before `today` (YYYY-MM): the period a payout run usually closes. */
export function previousMonth(today: Date): string {
  const d = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1));
  return d.toISOString().slice(0, 7);
}

/** A month field's value as the period of a run. */
export const periodOfMonth = (month: string) => monthPeriod(month);

/** An amount as the PDF prints it (core formatRupees: one display form for screen and PDF). */
export const money = (rupees: number) => formatRupees(rupeesToMinor(rupees));
