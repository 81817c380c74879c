import type { AppContext } from '../../context.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';

/** The name on the steps no user took (delivery, escalation). */
export const CRITICAL_RESULTS_ACTOR = { label: 'Critical results' } as const;

/** One message to send: a channel and its address. */
export interface TAddressee {
  channel: 'SMS' | 'EMAIL';
  to: string;
}

/**
 * Sends a critical result to each addressee (once per channel and address) through the app's
 * providers, which record every message in the outbox; each message a provider accepted is a
 * CRITICAL_RESULT_DELIVERED event on the row's timeline. Runs after the step it announces has
 * committed (as sharing does): a provider that fails (SMTP refused: the outbox row is FAILED) costs
 * that one delivery, never the recorded step, and the missing event shows it.
 */
export async function deliverCriticalResult(
  ctx: AppContext,
  input: {
    result: { id: number };
    row: { id: number; status: string };
    addressees: readonly TAddressee[];
    subject: string;
    body: string;
  },
): Promise<number> {
  const seen = new Set<string>();
  let delivered = 0;
  for (const a of input.addressees) {
    const key = `${a.channel}:${a.to.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      if (a.channel === 'SMS') {
        await ctx.sms.send({ to: a.to, body: input.body, reportStatusId: input.row.id });
      } else {
        await ctx.email.send({
          to: a.to,
          subject: input.subject,
          body: input.body,
          reportStatusId: input.row.id,
        });
      }
    } catch {
      continue;
    }
    await recordStudyEvent(ctx.db, {
      type: 'CRITICAL_RESULT_DELIVERED',
      reportStatusId: input.row.id,
      actor: CRITICAL_RESULTS_ACTOR,
      payload: { criticalResultId: input.result.id, channel: a.channel, to: a.to },
      at: ctx.now(),
    });
    delivered++;
  }
  return delivered;
}
