import { PAYMENT_AMOUNT_MAX } from '@radflow/core';

/** An amount as typed: a positive number with at most 2 decimals, else the message to show. */
export function parseAmount(text: string): { ok: true; value: number } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed)) return { ok: false, message: 'Enter an amount like 500 or 499.50' };
  const value = Number(trimmed);
  if (value <= 0) return { ok: false, message: 'The amount must be greater than 0' };
  if (value > PAYMENT_AMOUNT_MAX)
    return { ok: false, message: `The amount must be at most ${PAYMENT_AMOUNT_MAX}` };
  return { ok: true, value };
}
