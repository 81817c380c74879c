import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { SHARE_MESSAGES, type TSharePage, type TShareSeries } from '@radflow/core';
import { reportStatuses, shareLinkOtps, studyEvents } from '../../db/schema.js';
import { SHARE_ACCESS_COOKIE } from './share-access.js';
import { type TestApp, createTestApp, readOtpFromOutbox, uniqueMobile } from '../../../test/test-app.js';
import { shareBuilders } from '../../../test/share.fixtures.js';

/**
 * Issue 7 §5: the public share page. A patient or referring doctor opens `/share?link=…` without
 * signing in; the calls under /api/share/{link} answer with the link as the only credential, behind
 * a code to the patient's mobile when the group requires it.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
const build = shareBuilders(() => t);

/** A visitor without any session: only the cookies given. */
const visit = (url: string, opts: { cookie?: string; method?: 'GET' | 'POST'; body?: object } = {}) =>
  t.app.inject({
    method: opts.method ?? 'GET',
    url,
    remoteAddress: '203.0.113.9',
    headers: {
      'user-agent': 'share-test',
      // The share page's calls carry the device headers, like every call of the web app.
      'x-device-id': 'share-visitor',
      'x-device-name': 'Test browser',
      ...(opts.cookie ? { cookie: opts.cookie } : {}),
    },
    ...(opts.body ? { payload: opts.body } : {}),
  });

const eventsOf = (reportStatusId: number) =>
  t.db
    .select()
    .from(studyEvents)
    .where(and(eq(studyEvents.reportStatusId, reportStatusId), eq(studyEvents.eventType, 'SHARE_OPENED')));

describe('GET /api/share/{link}', () => {
  it('opens without a session: the facts, the signed report with its addendum; one SHARE_OPENED per visitor and hour', async () => {
    const w = await build.world();
    const { row, token } = await build.sharedStudy(w, { patientAge: '42Y', patientSex: 'F' });
    await build.signReport(w, row.id, '<p>No acute <strong>bleed</strong>.</p>');
    await build.addAddendum(w, row.id, '<p>Small old infarct noted.</p>');

    const res = await visit(`/api/share/${token}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const page = res.json<TSharePage>();
    expect(page).toMatchObject({
      patientName: 'ASHA SHARMA',
      patientAge: '42Y',
      patientSex: 'F',
      studyName: 'MRI BRAIN',
      studyDate: '2026-01-05',
      center: w.center.name,
      isReportReady: true,
      expiresAt: null,
    });
    expect(page.reports.map((r) => [r.isAddendum, r.content])).toEqual([
      [false, '<p>No acute <strong>bleed</strong>.</p>'],
      [true, '<p>Small old infarct noted.</p>'],
    ]);
    expect(page.reports[0]?.signature?.name).toBe('Dr Rao, MD');

    expect((await visit(`/api/share/${token}`)).statusCode).toBe(200);
    const events = await eventsOf(row.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorLabel: 'Share link', actorUserId: null });
  });

  it('a study not yet signed off shows its facts and "not ready": no report text, no PDF', async () => {
    const w = await build.world();
    const { row, token } = await build.sharedStudy(w, { status: 'REPORTED' });
    // A saved, unsigned report stays in the center.
    await build.addAddendum(w, row.id, '<p>draft text</p>');
    const page = (await visit(`/api/share/${token}`)).json<TSharePage>();
    expect(page.isReportReady).toBe(false);
    expect(page.reports).toEqual([]);
    expect(page.patientName).toBe('ASHA SHARMA');
    const pdf = await visit(`/api/share/${token}/report.pdf`);
    expect(pdf.statusCode).toBe(409);
    expect(pdf.json()).toMatchObject({ errorDescription: SHARE_MESSAGES.reportNotReady });
  });

  it('an unknown or malformed link is 404 with the same answer', async () => {
    for (const token of ['A'.repeat(32), 'short', '..%2F..%2Fetc', 'x'.repeat(65)]) {
      const res = await visit(`/api/share/${token}`);
      expect(res.statusCode, token).toBe(404);
    }
  });

  it('expires shareLinkValidityDays after the link was made: 410 "This link has expired"', async () => {
    const w = await build.world({}, 2);
    const fresh = await build.sharedStudy(w);
    const old = await build.sharedStudy(w);
    await t.db
      .update(reportStatuses)
      .set({ shareLinkCreatedAt: new Date(Date.now() - 3 * 86_400_000) })
      .where(eq(reportStatuses.id, old.row.id));

    const ok = await visit(`/api/share/${fresh.token}`);
    expect(ok.statusCode).toBe(200);
    expect(Date.parse(ok.json<TSharePage>().expiresAt!)).toBeGreaterThan(Date.now() + 86_400_000);
    for (const path of ['', '/series', '/report.pdf']) {
      const gone = await visit(`/api/share/${old.token}${path}`);
      expect(gone.statusCode, path).toBe(410);
      expect(gone.json()).toMatchObject({ errorDescription: SHARE_MESSAGES.linkExpired });
    }
    expect(await eventsOf(old.row.id)).toEqual([]);
  });

  it('a deleted study opens only when it was backed up', async () => {
    const w = await build.world();
    const deleted = await build.sharedStudy(w, { status: 'DELETED' });
    const backedUp = await build.sharedStudy(w, { status: 'DELETED', backedUpAt: new Date() });
    const res = await visit(`/api/share/${deleted.token}`);
    expect(res.statusCode).toBe(410);
    expect(res.json()).toMatchObject({ errorDescription: SHARE_MESSAGES.studyDeleted });
    expect((await visit(`/api/share/${backedUp.token}`)).statusCode).toBe(200);
  });
});

describe('The code to the patient (requireOtpForSharedReport)', () => {
  const accessCookieOf = (res: Awaited<ReturnType<typeof visit>>) =>
    res.cookies.find((c) => c.name === SHARE_ACCESS_COOKIE);

  it('asks for the code (masked mobile), counts wrong tries, opens once with the right code', async () => {
    const w = await build.world({ requireOtpForSharedReport: true });
    const mobile = uniqueMobile();
    const { row, token } = await build.sharedStudy(w, { mobileNumber: mobile });
    await build.signReport(w, row.id);

    const locked = await visit(`/api/share/${token}`);
    expect(locked.statusCode).toBe(401);
    const masked = `+91 ******${mobile.slice(-4)}`;
    expect(locked.json()).toMatchObject({
      errorDescription: SHARE_MESSAGES.codeRequired,
      additionalInfo: masked,
    });
    for (const path of ['/series', '/report.pdf'])
      expect((await visit(`/api/share/${token}${path}`)).statusCode, path).toBe(401);
    expect(await eventsOf(row.id)).toEqual([]);

    const sent = await visit(`/api/share/${token}/code`, { method: 'POST' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ mobile: masked, expiresInSeconds: 300 });
    const code = await readOtpFromOutbox(t.db, mobile);
    const wrongCode = code === '000000' ? '111111' : '000000';

    const wrong = await visit(`/api/share/${token}/verify`, { method: 'POST', body: { code: wrongCode } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ errorDescription: SHARE_MESSAGES.codeWrong });
    expect(accessCookieOf(wrong)).toBeUndefined();
    const [stored] = await t.db.select().from(shareLinkOtps).where(eq(shareLinkOtps.reportStatusId, row.id));
    expect(stored?.attempts).toBe(1);
    expect(stored?.codeHash).not.toContain(code);

    const right = await visit(`/api/share/${token}/verify`, { method: 'POST', body: { code } });
    expect(right.statusCode, right.body).toBe(200);
    const cookie = accessCookieOf(right);
    expect(cookie).toMatchObject({ httpOnly: true, path: `/api/share/${token}` });
    expect(cookie!.maxAge).toBeGreaterThan(3600);

    const opened = await visit(`/api/share/${token}`, { cookie: `${SHARE_ACCESS_COOKIE}=${cookie!.value}` });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json<TSharePage>().isReportReady).toBe(true);
    expect(await eventsOf(row.id)).toHaveLength(1);

    const reused = await visit(`/api/share/${token}/verify`, { method: 'POST', body: { code } });
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toMatchObject({ errorDescription: SHARE_MESSAGES.codeGone });
  });

  it("another link's cookie, a forged or an expired one opens nothing", async () => {
    const w = await build.world({ requireOtpForSharedReport: true });
    const mobile = uniqueMobile();
    const a = await build.sharedStudy(w, { mobileNumber: mobile });
    const b = await build.sharedStudy(w, { mobileNumber: mobile });
    await visit(`/api/share/${a.token}/code`, { method: 'POST' });
    const code = await readOtpFromOutbox(t.db, mobile);
    const verified = await visit(`/api/share/${a.token}/verify`, { method: 'POST', body: { code } });
    const value = accessCookieOf(verified)!.value;

    expect(
      (await visit(`/api/share/${a.token}`, { cookie: `${SHARE_ACCESS_COOKIE}=${value}` })).statusCode,
    ).toBe(200);
    expect(
      (await visit(`/api/share/${b.token}`, { cookie: `${SHARE_ACCESS_COOKIE}=${value}` })).statusCode,
    ).toBe(401);
    const [expiry, signature] = value.split('.');
    const later = `${Number(expiry) + 3600}.${signature}`;
    expect(
      (await visit(`/api/share/${a.token}`, { cookie: `${SHARE_ACCESS_COOKIE}=${later}` })).statusCode,
    ).toBe(401);
    t.clock.advance(13 * 3600);
    try {
      expect(
        (await visit(`/api/share/${a.token}`, { cookie: `${SHARE_ACCESS_COOKIE}=${value}` })).statusCode,
      ).toBe(401);
    } finally {
      t.clock.advance(-13 * 3600);
    }
  });

  it('five wrong tries kill the code; at most five codes per link in 15 minutes', async () => {
    const w = await build.world({ requireOtpForSharedReport: true });
    const mobile = uniqueMobile();
    const { token } = await build.sharedStudy(w, { mobileNumber: mobile });
    await visit(`/api/share/${token}/code`, { method: 'POST' });
    const code = await readOtpFromOutbox(t.db, mobile);
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++)
      await visit(`/api/share/${token}/verify`, { method: 'POST', body: { code: wrongCode } });
    const late = await visit(`/api/share/${token}/verify`, { method: 'POST', body: { code } });
    expect(late.statusCode).toBe(401);
    expect(late.json()).toMatchObject({ errorDescription: SHARE_MESSAGES.codeGone });

    for (let i = 0; i < 4; i++)
      expect((await visit(`/api/share/${token}/code`, { method: 'POST' })).statusCode).toBe(200);
    const limited = await visit(`/api/share/${token}/code`, { method: 'POST' });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('without a mobile on the row the link says so (403); a malformed code is 400', async () => {
    const w = await build.world({ requireOtpForSharedReport: true });
    const { token } = await build.sharedStudy(w, { mobileNumber: null });
    const res = await visit(`/api/share/${token}`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ errorDescription: SHARE_MESSAGES.noMobileForCode });
    expect((await visit(`/api/share/${token}/code`, { method: 'POST' })).statusCode).toBe(403);
    const bad = await visit(`/api/share/${token}/verify`, { method: 'POST', body: { code: '12ab' } });
    expect(bad.statusCode).toBe(400);
  });
});

describe('Images and the PDF of a link', () => {
  it('lists the series of that study and renders its frames; another study of the group is 404', async () => {
    const w = await build.world();
    const mine = await build.sharedImageStudy(w, 'charset/latin1_iso_ir_100_french.dcm');
    const other = await build.sharedImageStudy(w, 'charset/greek_iso_ir_126.dcm');
    expect(mine.studyInstanceUid).not.toBe(other.studyInstanceUid);

    const list = await visit(`/api/share/${mine.token}/series`);
    expect(list.statusCode, list.body).toBe(200);
    const series = list.json<TShareSeries[]>();
    expect(series).toHaveLength(1);
    expect(series[0]).toMatchObject({
      seriesUid: mine.seriesInstanceUid,
      frames: [{ sopUid: mine.sopInstanceUid, frame: 1 }],
    });
    expect((await visit(`/api/share/${mine.token}`)).json<TSharePage>().hasImages).toBe(true);

    const frame = await visit(
      `/api/share/${mine.token}/series/${mine.seriesInstanceUid}/instances/${mine.sopInstanceUid}/frames/1`,
    );
    expect(frame.statusCode, frame.body).toBe(200);
    expect(frame.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(frame.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([32, 32]);

    const foreign = await visit(
      `/api/share/${mine.token}/series/${other.seriesInstanceUid}/instances/${other.sopInstanceUid}/frames/1`,
    );
    expect(foreign.statusCode).toBe(404);
    const ownThroughOther = await visit(
      `/api/share/${other.token}/series/${other.seriesInstanceUid}/instances/${other.sopInstanceUid}/frames/1`,
    );
    expect(ownThroughOther.statusCode).toBe(200);
  });

  it('answers the signed report as a PDF', async () => {
    const w = await build.world();
    const { row, token } = await build.sharedStudy(w);
    await build.signReport(w, row.id);
    const res = await visit(`/api/share/${token}/report.pdf`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename=".+\.pdf"; filename\*=UTF-8''.+\.pdf$/,
    );
  });
});
