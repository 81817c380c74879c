/**
 * Rupees on the wire, paise in the store. The API and the screens carry amounts as rupee numbers
 * with at most two decimals (spec-lab §7 bodies: price, totalPrice, finalAmount…); the database and
 * all arithmetic use integer paise so no sum ever drifts by a floating-point fraction.
 */

/** The largest amount a lab row holds: ₹10 crore, far above any bill, far below 2^53 paise. */
export const MAX_RUPEES = 100_000_000;

/** Whether `rupees` is a finite, non-negative amount with at most two decimals, within MAX_RUPEES. */
export function isRupeeAmount(rupees: number): boolean {
  if (!Number.isFinite(rupees) || rupees < 0 || rupees > MAX_RUPEES) return false;
  return Math.abs(Math.round(rupees * 100) - rupees * 100) < 1e-6;
}

/** Rupees (≤ 2 decimals; check with isRupeeAmount first) to integer paise. */
export function toPaise(rupees: number): number {
  return Math.round(rupees * 100);
}

/** Integer paise to rupees (a number with at most two decimals). */
export function toRupees(paise: number): number {
  return paise / 100;
}
