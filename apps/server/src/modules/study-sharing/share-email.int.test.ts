import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TReportMessage, TViewerQrResponse } from '@radflow/core';
import { messageOutbox, reportStatuses } from '../../db/schema.js';
import { type TestApp, uniqueMobile } from '../../../test/test-app.js';
import { type TestSmtp, useAppWithSmtp } from '../../../test/smtp-test-server.js';
import { shareBuilders } from '../../../test/share.fixtures.js';
import { signedInAt } from '../../../test/worklist-test-data.js';

/**
 * Issue 7 §5 delivery: the e-mail carries the report PDF once the study is signed off, every message
 * is kept with its delivery status against its study, and the share dialog reads them back.
 */

const PUBLIC_URL = 'https://radflow.example';

/** The attachments of a raw MIME message: file name and decoded bytes (base64 parts). */
function attachmentsOf(raw: string): Array<{ filename: string; bytes: Buffer }> {
  const found: Array<{ filename: string; bytes: Buffer }> = [];
  for (const part of raw.split(/\r\n--[^\r\n]+\r\n/)) {
    const [head, ...rest] = part.split('\r\n\r\n');
    const name = /Content-Disposition:\s*attachment;[\s\S]*?filename="?([^"\r\n;]+)"?/i.exec(head ?? '');
    if (!name?.[1]) continue;
    const body = rest.join('\r\n\r\n').split(/\r\n--/)[0] ?? '';
    found.push({ filename: name[1], bytes: Buffer.from(body.replace(/\s+/g, ''), 'base64') });
  }
  return found;
}

const suite = useAppWithSmtp(PUBLIC_URL);
let t: TestApp;
let smtp: TestSmtp;
beforeAll(() => {
  ({ app: t, smtp } = suite);
});
const build = shareBuilders(() => t);

async function centerWorld(flags: Parameters<typeof build.world>[0] = {}) {
  const w = await build.world(flags);
  const center = await signedInAt(t, w, ['ROLE_CENTER']);
  const assignor = await signedInAt(t, w, ['ROLE_ASSIGNOR']);
  return { ...w, centerUser: center.browser, assignor: assignor.browser };
}

const outboxTo = (recipient: string) =>
  t.db.select().from(messageOutbox).where(eq(messageOutbox.recipient, recipient));
const newAddress = (domain = 'clinic.test') => `ref-${randomBytes(3).toString('hex')}@${domain}`;

describe('POST /report-status/send-email/{id} with the report', () => {
  it('a signed-off study: the e-mail arrives with the PDF attached; the outbox row is SENT with its name', async () => {
    const w = await centerWorld();
    const { row, token } = await build.sharedStudy(w);
    await build.signReport(w, row.id);
    const to = newAddress();

    const res = await w.centerUser.post(`/api/report-status/send-email/${row.id}`, { email: to });
    expect(res.statusCode, res.body).toBe(200);

    const mail = smtp.messages.find((m) => m.to.includes(to));
    expect(mail).toBeDefined();
    const [attachment, ...others] = attachmentsOf(mail!.data);
    expect(others).toEqual([]);
    expect(attachment?.filename).toMatch(/\.pdf$/);
    expect(attachment!.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(mail!.data).toContain('Content-Type: application/pdf');

    const [outbox] = await outboxTo(to);
    expect(outbox).toMatchObject({
      channel: 'EMAIL',
      status: 'SENT',
      reportStatusId: row.id,
      attachments: [attachment!.filename],
      failureReason: null,
    });
    expect(outbox?.body).toContain(`${PUBLIC_URL}/share?link=${token}`);
  });

  it('before sign-off only the link goes, no attachment', async () => {
    const w = await centerWorld();
    const { row } = await build.sharedStudy(w, { status: 'REPORTED' });
    const to = newAddress();
    const res = await w.centerUser.post(`/api/report-status/send-email/${row.id}`, { email: to });
    expect(res.statusCode, res.body).toBe(200);
    const mail = smtp.messages.find((m) => m.to.includes(to));
    expect(attachmentsOf(mail!.data)).toEqual([]);
    const [outbox] = await outboxTo(to);
    expect(outbox).toMatchObject({ status: 'SENT', attachments: [], reportStatusId: row.id });
  });

  it('a refused recipient: 502, the row FAILED with the reason', async () => {
    const w = await centerWorld();
    const { row } = await build.sharedStudy(w);
    await build.signReport(w, row.id);
    const to = newAddress('refused.test');
    const res = await w.centerUser.post(`/api/report-status/send-email/${row.id}`, { email: to });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ errorDescription: 'The e-mail could not be sent' });
    const [outbox] = await outboxTo(to);
    expect(outbox?.status).toBe('FAILED');
    expect(outbox?.failureReason).toMatch(/550/);
    expect(outbox?.attachments).toHaveLength(1);
  });
});

describe('GET /report-status/messages/{id}', () => {
  it("answers the row's messages, newest first, to whoever may share it; 403 for others", async () => {
    const w = await centerWorld();
    const { row } = await build.sharedStudy(w);
    await build.signReport(w, row.id);
    const number = uniqueMobile();
    const to = newAddress();
    const refused = newAddress('refused.test');
    await w.centerUser.post(`/api/report-status/send-message/${row.id}`, { number });
    await w.centerUser.post(`/api/report-status/send-email/${row.id}`, { email: to });
    await w.centerUser.post(`/api/report-status/send-email/${row.id}`, { email: refused });

    const res = await w.centerUser.get(`/api/report-status/messages/${row.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const messages = res.json<TReportMessage[]>();
    expect(messages.map((m) => [m.channel, m.recipient, m.status])).toEqual([
      ['EMAIL', refused, 'FAILED'],
      ['EMAIL', to, 'SENT'],
      ['WHATSAPP', number, 'PENDING'],
      ['SMS', number, 'PENDING'],
    ]);
    expect(messages[0]?.failureReason).toMatch(/550/);
    expect(messages[1]?.attachments[0]).toMatch(/\.pdf$/);
    expect(Date.parse(messages[0]!.sentAt)).not.toBeNaN();

    expect((await w.assignor.get(`/api/report-status/messages/${row.id}`)).statusCode).toBe(403);
    const stranger = await centerWorld();
    expect((await stranger.centerUser.get(`/api/report-status/messages/${row.id}`)).statusCode).toBe(404);
  });
});

describe('POST /pdf/generate-viewer-qr', () => {
  it('403 unless the group enables secure viewer QR codes', async () => {
    const w = await centerWorld();
    const { row } = await build.sharedStudy(w);
    const res = await w.centerUser.post('/api/pdf/generate-viewer-qr', { reportStatusId: row.id });
    expect(res.statusCode).toBe(403);
  });

  it('makes the share link once (with its time) and answers it with a PNG QR code', async () => {
    const w = await centerWorld({ enableSecureViewerQrCodeGeneration: true });
    const { row } = await build.sharedStudy(w);
    await t.db
      .update(reportStatuses)
      .set({ shareLink: null, shareLinkCreatedAt: null })
      .where(eq(reportStatuses.id, row.id));

    const first = await w.centerUser.post('/api/pdf/generate-viewer-qr', { reportStatusId: row.id });
    expect(first.statusCode, first.body).toBe(200);
    const qr = first.json<TViewerQrResponse>();
    const [stored] = await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, row.id));
    expect(stored?.shareLink).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(stored?.shareLinkCreatedAt).toBeInstanceOf(Date);
    expect(qr.url).toBe(`${PUBLIC_URL}/share?link=${stored!.shareLink}`);
    const png = Buffer.from(qr.qrDataUrl.replace(/^data:image\/png;base64,/, ''), 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');

    const again = await w.centerUser.post('/api/pdf/generate-viewer-qr', { reportStatusId: row.id });
    expect(again.json<TViewerQrResponse>().url).toBe(qr.url);
    const [after] = await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, row.id));
    expect(after?.shareLinkCreatedAt?.getTime()).toBe(stored!.shareLinkCreatedAt!.getTime());
    expect(
      (await w.assignor.post('/api/pdf/generate-viewer-qr', { reportStatusId: row.id })).statusCode,
    ).toBe(403);
  });
});
