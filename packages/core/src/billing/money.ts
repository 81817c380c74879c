/*
 * The ledger's one rounding rule (issue 26 §5 "money in integer minor units with one rounding rule in
 * core"). Every amount is integer minor units (paise); a percentage is basis points (hundredths of a
 * percent: 18% = 1800). A share of an amount is rounded half up, away from zero for negatives, so a
 * credit note's tax is exactly the negative of the same invoice amount's tax.
 */

/** The largest amount one ledger figure holds: ₹1,000 crore in paise, far below 2^53. */
export const MAX_LEDGER_MINOR = 10_000_000_000_00;

/**
 * `amountMinor × basisPoints / 10,000` rounded half up (half away from zero), in integer arithmetic
 * (bigint), so no floating-point fraction ever decides a paisa. The tax of an invoice, the GST of a
 * credit note and every percentage of the payout side use this one function.
 */
export function percentOfMinor(amountMinor: number, basisPoints: number): number {
  if (!Number.isSafeInteger(amountMinor))
    throw new RangeError(`amount ${amountMinor} is not integer minor units`);
  if (!Number.isSafeInteger(basisPoints) || basisPoints < 0)
    throw new RangeError(`basis points ${basisPoints} is not a non-negative integer`);
  const negative = amountMinor < 0;
  const product = BigInt(Math.abs(amountMinor)) * BigInt(basisPoints);
  const rounded = (product + 5_000n) / 10_000n;
  const result = Number(rounded);
  return negative ? -result : result;
}

/** Rupees on the wire (≤ 2 decimals, may be negative for adjustments) to integer paise. */
export function rupeesToMinor(rupees: number): number {
  return Math.round(rupees * 100);
}

/** Integer paise to rupees on the wire. */
export function minorToRupees(minor: number): number {
  return minor / 100;
}

/** Whether `rupees` has at most two decimals and a magnitude within the ledger's range. */
export function isLedgerRupees(rupees: number): boolean {
  if (!Number.isFinite(rupees) || Math.abs(rupees) * 100 > MAX_LEDGER_MINOR) return false;
  return Math.abs(Math.round(rupees * 100) - rupees * 100) < 1e-6;
}
