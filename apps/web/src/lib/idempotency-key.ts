/**
 * A fresh Idempotency-Key (one per distinct write the user asks for: a bill, a payment), so that a
 * double-click or a retry of the same write is answered once by the server (modules/idempotency).
 */
export function newIdempotencyKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `k-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}
