import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TStudyPayments } from '@radflow/core';
import { messageOutbox, users } from '../../db/schema.js';
import { useAppWithSmtp } from '../../../test/smtp-test-server.js';
import { createTestStudy, createTestWorld, signedIn, signedInAt } from '../../../test/worklist-test-data.js';

/**
 * A payment request e-mails the provider's pay link to the viewer accounts the study is shared with
 * (payments DECISIONS 'Order of a request'), over SMTP here: a refused address does not undo the
 * request.
 */

const suite = useAppWithSmtp('https://radflow.example', { paymentTestGateway: true });

describe('POST /report-status/payment/request/{id} with SMTP', () => {
  it('mails the pay link to each viewer account it is shared with; a refused one is FAILED, the request stands', async () => {
    const t = suite.app;
    const world = await createTestWorld(t.db);
    const center = await signedInAt(t, world, ['ROLE_CENTER']);
    const viewer = await signedIn(t, { roles: ['ROLE_VIEWER'], groupId: world.group.id });
    const refused = await signedIn(t, { roles: ['ROLE_VIEWER'], groupId: world.group.id });
    const refusedEmail = `v-${randomBytes(3).toString('hex')}@refused.test`;
    await t.db.update(users).set({ email: refusedEmail }).where(eq(users.id, refused.user.id));
    // A shared address that is no viewer account of the group gets no payment e-mail.
    const patient = `patient-${randomBytes(3).toString('hex')}@example.com`;
    const { row } = await createTestStudy(t.db, {
      groupId: world.group.id,
      centerId: world.center.id,
      row: { sharedEmails: [viewer.user.email, refusedEmail, patient] },
    });

    const res = await center.browser.post(`/api/report-status/payment/request/${row.id}`, { amount: 99 });
    expect(res.statusCode, res.body).toBe(200);
    const payUrl = res.json<TStudyPayments>().payments[0]?.payUrl ?? '';
    expect(payUrl).toContain('payment-id=');

    const delivered = suite.smtp.messages.filter((m) => m.to.includes(viewer.user.email));
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.data).toContain('Payment requested');
    const outbox = await t.db.select().from(messageOutbox).where(eq(messageOutbox.reportStatusId, row.id));
    expect(outbox.map((m) => [m.recipient, m.status]).sort()).toEqual(
      [
        [viewer.user.email, 'SENT'],
        [refusedEmail, 'FAILED'],
      ].sort(),
    );
    expect(suite.smtp.messages.some((m) => m.to.includes(patient))).toBe(false);
  });
});
