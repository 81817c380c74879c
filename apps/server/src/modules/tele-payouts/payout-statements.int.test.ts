import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  DEFAULT_DISPLAY_TIME_ZONE,
  type TInvoicePreview,
  type TMarginReport,
  type TPayoutIssueResult,
  type TPayoutPreview,
  type TPayoutStatementDetail,
  type TPayoutStatementList,
  calendarDayIn,
  formatRupees,
} from '@radflow/core';
import { billingAuditEvents, billingDocuments, billingLines, reports } from '../../db/schema.js';
import { pdfText } from '../../../test/pdf-text.js';
import { reportingCalls, saved } from '../../../test/reporting.fixtures.js';
import { addPrice, signedOffStudies } from '../../../test/tele-billing-data.js';
import {
  type TestApp,
  type TestClient,
  createTestApp,
  createTestCenter,
  createTestWorld,
  signInAt,
} from '../../../test/test-app.js';
import { createTestStudy } from '../../../test/worklist-test-data.js';

/*
 * The radiologist's payout through HTTP (issue 26 §2): rates, a doctor's statement that matches their
 * reads, addenda and urgent rows, a re-run that issues nothing, the PDF read back equal to the ledger,
 * the payout paid (stale version 409), the margin over both sides, and who sees what: 403 for other
 * roles, a doctor only their own statement, another group's statement 404.
 */

let t: TestApp;
let world: Awaited<ReturnType<typeof createTestWorld>>;
let other: Awaited<ReturnType<typeof createTestWorld>>;
let tele: TestClient;
let doctorA: { id: number; browser: TestClient };
let doctorB: { id: number; browser: TestClient };
const calls = reportingCalls(() => t);
const PERIOD = { periodStart: '2026-03-01', periodEnd: '2026-03-31' };
/** Noon UTC: the same day in any display time zone the group may have. */
const day = (d: string) => new Date(`${d}T12:00:00Z`);

async function ok<T>(res: { statusCode: number; body: string; json: () => unknown }): Promise<T> {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}

/** A signed-off row read by `doctorId` on `signedOn`, with its main report (and addenda) as sign-off writes them. */
async function readRow(
  doctorId: number,
  signedOn: string,
  opts: { parts?: string[]; urgent?: boolean; addenda?: string[]; centerId?: number; modality?: string } = {},
) {
  const { row } = await createTestStudy(t.db, {
    groupId: world.group.id,
    centerId: opts.centerId ?? world.center.id,
    modalities: [opts.modality ?? 'CT'],
    row: {
      status: 'SIGNED_OFF',
      urgent: opts.urgent ?? false,
      studyParts: opts.parts ?? [],
      signedOffAt: day(signedOn),
      firstSignedOffAt: day(signedOn),
      lockedByUserId: doctorId,
    },
  });
  const base = {
    reportStatusId: row.id,
    contentHtml: '<p>x</p>',
    doctorUserId: doctorId,
    typedByUserId: doctorId,
  };
  await t.db
    .insert(reports)
    .values({ ...base, name: 'CT', signedOffByUserId: doctorId, signedOffAt: day(signedOn) });
  for (const a of opts.addenda ?? [])
    await t.db.insert(reports).values({ ...base, name: 'Addendum', isAddendum: true, signedOffAt: day(a) });
  return row;
}

async function addRate(body: Record<string, unknown>) {
  const res = await tele.post('/api/tele-payout/rates', body);
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  world = await createTestWorld(t.db);
  other = await createTestWorld(t.db);
  tele = (await signInAt(t, world, ['ROLE_TELE_RADIOLOGY'])).browser;
  const a = await signInAt(t, world, ['ROLE_DOCTOR']);
  const b = await signInAt(t, world, ['ROLE_DOCTOR']);
  doctorA = { id: a.user.id, browser: a.browser };
  doctorB = { id: b.user.id, browser: b.browser };
  // The default doctor rates, and doctor A's own read of a CT HEAD (from 1 March) that replaced an older one.
  const from = '2026-01-01';
  await addRate({ doctorUserId: null, modality: 'ct', charge: 'READ', amount: 100, effectiveFrom: from });
  await addRate({
    doctorUserId: null,
    modality: 'CT',
    charge: 'ADDENDUM',
    amount: 20.25,
    effectiveFrom: from,
  });
  await addRate({ doctorUserId: null, modality: 'CT', charge: 'URGENT', amount: 50, effectiveFrom: from });
  await addRate({
    doctorUserId: doctorA.id,
    modality: 'CT',
    studyPart: 'HEAD',
    charge: 'READ',
    amount: 120,
    effectiveFrom: from,
  });
  await addRate({
    doctorUserId: doctorA.id,
    modality: 'CT',
    studyPart: 'HEAD',
    charge: 'READ',
    amount: 150.5,
    effectiveFrom: '2026-03-10',
  });
});
afterAll(() => t.close());

describe("a doctor's payout statement", () => {
  let statementA: TPayoutStatementDetail;

  it('pays each read per part at the rate in force, each addendum, the urgent surcharge; a re-run issues nothing', async () => {
    // Doctor A: a CT HEAD before the new rate (120), a CT HEAD + CHEST after it (150.50 + CHEST falls back
    // to the base read 100), an urgent CT (100 + 50) with an addendum (20.25), one read signed off through
    // the editor (100) and its addendum (20.25). Doctor B: one read (100). Outside: April, another group.
    await readRow(doctorA.id, '2026-03-05', { parts: ['HEAD'] });
    await readRow(doctorA.id, '2026-03-12', { parts: ['HEAD', ' CHEST', 'HEAD'] });
    await readRow(doctorA.id, '2026-03-20', { urgent: true, addenda: ['2026-03-21'] });
    await readRow(doctorB.id, '2026-03-15');
    await readRow(doctorA.id, '2026-04-02');
    const { row: live } = await createTestStudy(t.db, { groupId: world.group.id, centerId: world.center.id });
    expect((await calls.lock(doctorA.browser, live.id)).statusCode).toBe(200);
    saved(await calls.signOff(doctorA.browser, live.id));
    saved(await calls.addendum(doctorA.browser, live.id, '<p>More.</p>'));
    // The day in the group's zone (the payout's calendar), not the UTC one: they differ each evening.
    const liveDay = calendarDayIn(new Date(), DEFAULT_DISPLAY_TIME_ZONE);
    const period = {
      periodStart: PERIOD.periodStart,
      periodEnd: liveDay > PERIOD.periodEnd ? liveDay : PERIOD.periodEnd,
    };

    const preview = await ok<TPayoutPreview>(
      await tele.post('/api/tele-payout/preview', { ...period, doctorUserId: doctorA.id }),
    );
    const [mine] = preview.doctors;
    // The April read is after the end only when today is in March; count what the period holds.
    const aprilIn = period.periodEnd >= '2026-04-02' ? 1 : 0;
    expect(mine?.counts).toEqual({ reads: 4 + aprilIn, addenda: 2, urgent: 1 });
    expect(mine?.total).toBe(120 + 150.5 + 100 + 100 + 50 + 20.25 + 100 + 20.25 + 100 * aprilIn);

    // The group's preview: the same counts and totals per doctor, aggregated (no lines).
    const all = await ok<TPayoutPreview>(await tele.post('/api/tele-payout/preview', period));
    const allA = all.doctors.find((d) => d.doctorUserId === doctorA.id);
    expect(allA).toMatchObject({ counts: mine?.counts, total: mine?.total, lines: [] });
    expect(all.doctors.find((d) => d.doctorUserId === doctorB.id)).toMatchObject({
      counts: { reads: 1, addenda: 0, urgent: 0 },
      total: 100,
    });
    expect(all.total).toBe((mine?.total ?? 0) + 100);

    const run = await ok<TPayoutIssueResult>(await tele.post('/api/tele-payout/issue', period));
    expect(run.issued.map((s) => s.doctorUserId).sort()).toEqual([doctorA.id, doctorB.id].sort());
    const a = run.issued.find((s) => s.doctorUserId === doctorA.id)!;
    expect(a.total).toBe(mine?.total);
    expect(a.number).toMatch(/^PO-\d{4}-\d{4}$/);
    statementA = await ok<TPayoutStatementDetail>(await tele.get(`/api/tele-payout/statements/${a.id}`));
    expect(statementA.lines.map((l) => [l.charge, l.studyPart, l.amount])).toEqual(
      expect.arrayContaining([
        ['READ', 'HEAD', 120],
        ['READ', 'HEAD', 150.5],
        ['READ', 'CHEST', 100],
        ['URGENT', '', 50],
        ['ADDENDUM', '', 20.25],
      ]),
    );
    const [stored] = await t.db.select().from(billingDocuments).where(eq(billingDocuments.id, a.id));
    const lines = await t.db.select().from(billingLines).where(eq(billingLines.documentId, a.id));
    expect(lines.every((l) => l.side === 'DOCTOR')).toBe(true);
    expect(lines.reduce((s, l) => s + l.amountMinor, 0)).toBe(stored?.totalMinor);
    const audits = await t.db.select().from(billingAuditEvents).where(eq(billingAuditEvents.entityId, a.id));
    expect(audits.map((e) => e.action)).toContain('PAYOUT_STATEMENT_ISSUED');

    const again = await ok<TPayoutIssueResult>(await tele.post('/api/tele-payout/issue', period));
    expect(again.issued).toEqual([]);
    expect(await t.db.select().from(billingLines).where(eq(billingLines.documentId, a.id))).toHaveLength(
      lines.length,
    );
    const emptyPreview = await ok<TPayoutPreview>(await tele.post('/api/tele-payout/preview', period));
    expect(emptyPreview.doctors).toEqual([]);
  });

  it('prints every amount of the ledger on the PDF', async () => {
    const res = await doctorA.browser.get(`/api/tele-payout/statements/${statementA.id}/pdf`);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(res.rawPayload);
    const lines = await t.db.select().from(billingLines).where(eq(billingLines.documentId, statementA.id));
    const [doc] = await t.db.select().from(billingDocuments).where(eq(billingDocuments.id, statementA.id));
    expect(text).toContain(statementA.number);
    for (const l of lines) expect(text).toContain(formatRupees(l.amountMinor));
    expect(text).toContain(`Total ${formatRupees(doc!.totalMinor)}`);
    expect(text).toContain(`Due ${formatRupees(doc!.totalMinor)}`);
  });

  it('records the payout paid; a stale version is 409 and more than is due is 400', async () => {
    const pay = (body: Record<string, unknown>) =>
      tele.post(`/api/tele-payout/statements/${statementA.id}/payment`, {
        mode: 'BANK_TRANSFER',
        reference: 'NEFT-1',
        receivedOn: '2026-04-05',
        ...body,
      });
    expect((await pay({ amount: statementA.total + 1, version: statementA.version })).statusCode).toBe(400);
    const part = await ok<TPayoutStatementDetail>(await pay({ amount: 100, version: statementA.version }));
    expect(part).toMatchObject({ status: 'PARTIALLY_PAID', paid: 100, version: statementA.version + 1 });
    expect((await pay({ amount: 1, version: statementA.version })).statusCode).toBe(409);
    const paid = await ok<TPayoutStatementDetail>(
      await pay({ amount: statementA.total - 100, version: part.version }),
    );
    expect(paid).toMatchObject({ status: 'PAID', due: 0 });
    expect(paid.payments).toHaveLength(2);
  });
});

describe('who sees payouts', () => {
  it('a doctor lists and opens only their own statements; other roles get 403; another group 404', async () => {
    const mine = await ok<TPayoutStatementList>(await doctorA.browser.get('/api/tele-payout/statements'));
    expect(mine.statements.length).toBeGreaterThan(0);
    expect(mine.statements.every((s) => s.doctorUserId === doctorA.id)).toBe(true);
    const theirs = await ok<TPayoutStatementList>(
      await doctorB.browser.get(`/api/tele-payout/statements?doctorUserId=${doctorA.id}`),
    );
    expect(theirs.statements.every((s) => s.doctorUserId === doctorB.id)).toBe(true);
    const idA = mine.statements[0]!.id;
    expect((await doctorB.browser.get(`/api/tele-payout/statements/${idA}`)).statusCode).toBe(404);
    expect((await doctorB.browser.get(`/api/tele-payout/statements/${idA}/pdf`)).statusCode).toBe(404);
    // A doctor reads: no rates, runs, payments or margin.
    expect((await doctorA.browser.get('/api/tele-payout/rates')).statusCode).toBe(403);
    expect((await doctorA.browser.post('/api/tele-payout/issue', PERIOD)).statusCode).toBe(403);
    expect(
      (await doctorA.browser.get('/api/tele-payout/margin?from=2026-03-01&to=2026-03-31')).statusCode,
    ).toBe(403);
    for (const roles of [['ROLE_CENTER'], ['ROLE_ADMIN'], ['ROLE_ASSIGNOR']] as const) {
      const { browser } = await signInAt(t, world, [...roles]);
      expect((await browser.get('/api/tele-payout/statements')).statusCode, roles[0]).toBe(403);
      expect((await browser.post('/api/tele-payout/preview', PERIOD)).statusCode, roles[0]).toBe(403);
    }
    const stranger = (await signInAt(t, other, ['ROLE_BILLER'])).browser;
    expect((await stranger.get(`/api/tele-payout/statements/${idA}`)).statusCode).toBe(404);
    expect((await stranger.get(`/api/tele-payout/statements/${idA}/pdf`)).statusCode).toBe(404);
    const pay = await stranger.post(`/api/tele-payout/statements/${idA}/payment`, {
      amount: 1,
      mode: 'CASH',
      receivedOn: '2026-04-05',
      version: 1,
    });
    expect(pay.statusCode).toBe(404);
    expect(
      (await ok<TPayoutStatementList>(await stranger.get('/api/tele-payout/statements'))).statements,
    ).toEqual([]);
    const preview = await stranger.post('/api/tele-payout/preview', { ...PERIOD, doctorUserId: doctorA.id });
    expect(preview.statusCode).toBe(404);
  });

  it('refuses bad input with a 400 naming it', async () => {
    const bad = await tele.post('/api/tele-payout/issue', {
      periodStart: '2026-03-31',
      periodEnd: '2026-03-01',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('The period must end on or after its start');
    const rate = await tele.post('/api/tele-payout/rates', {
      doctorUserId: null,
      modality: 'CT',
      charge: 'READ',
      amount: 1.234,
      effectiveFrom: '2026-01-01',
    });
    expect(rate.statusCode).toBe(400);
  });
});

describe('the margin', () => {
  it('sets the center invoice lines against the payout lines of the same rows, per center, doctor and modality', async () => {
    // A fresh group with two centers: center A invoiced for March by the tele invoicing, center B not.
    const g = await createTestWorld(t.db);
    const centerB = await createTestCenter(t.db, { groupId: g.group.id });
    const biller = (await signInAt(t, g, ['ROLE_BILLER'])).browser;
    const doc = await signInAt(t, g, ['ROLE_DOCTOR']);
    await addPrice(biller, { modality: 'CT', amount: 1000, effectiveFrom: '2026-01-01' });
    await addPrice(biller, { modality: 'MR', amount: 1500, effectiveFrom: '2026-01-01' });
    const rate = (body: Record<string, unknown>) =>
      biller.post('/api/tele-payout/rates', { doctorUserId: null, effectiveFrom: '2026-01-01', ...body });
    expect((await rate({ modality: 'CT', charge: 'READ', amount: 300 })).statusCode).toBe(200);
    expect((await rate({ modality: 'MR', charge: 'READ', amount: 500 })).statusCode).toBe(200);
    const a = { groupId: g.group.id, centerId: g.center.id };
    const made = [
      ...(await signedOffStudies(t.db, a, [
        { at: '2026-03-10T12:00:00Z', modality: 'CT', count: 2 },
        { at: '2026-03-11T12:00:00Z', modality: 'MR' },
      ])),
      ...(await signedOffStudies(t.db, { ...a, centerId: centerB.id }, [{ at: '2026-03-12T12:00:00Z' }])),
    ];
    for (const { row } of made)
      await t.db.insert(reports).values({
        reportStatusId: row.id,
        name: 'R',
        contentHtml: '<p>x</p>',
        doctorUserId: doc.user.id,
        typedByUserId: doc.user.id,
        signedOffAt: row.signedOffAt,
      });
    const invoice = await biller.post('/api/tele-invoices', { centerId: g.center.id, ...PERIOD });
    expect(invoice.statusCode, invoice.body).toBe(200);
    const { id: invoiceId, version } = invoice.json<{ id: number; version: number }>();
    const credit = await biller.post(`/api/tele-invoices/${invoiceId}/credit-notes`, {
      amount: 100,
      reason: 'Goodwill',
      version,
    });
    expect(credit.statusCode, credit.body).toBe(200);
    const run = await ok<TPayoutIssueResult>(await biller.post('/api/tele-payout/issue', PERIOD));
    expect(run.issued.map((s) => s.total)).toEqual([3 * 300 + 500]);

    const m = await ok<TMarginReport>(
      await biller.get('/api/tele-payout/margin?from=2026-03-01&to=2026-03-31'),
    );
    expect(m.total).toMatchObject({ studies: 4, invoiced: 3500, paidOut: 1400, margin: 2100 });
    expect(m.byCenter.map((r) => [r.key, r.studies, r.invoiced, r.paidOut, r.margin]).sort()).toEqual(
      [
        [String(g.center.id), 3, 3500, 1100, 2400],
        [String(centerB.id), 1, 0, 300, -300],
      ].sort(),
    );
    expect(m.byDoctor).toEqual([
      expect.objectContaining({ key: String(doc.user.id), studies: 4, paidOut: 1400 }),
    ]);
    expect(m.byModality.map((r) => [r.key, r.studies, r.invoiced, r.paidOut, r.margin])).toEqual([
      ['CT', 3, 2000, 900, 1100],
      ['MR', 1, 1500, 500, 1000],
    ]);
    expect(m).toMatchObject({ notInvoiced: 1, notPaidOut: 0, centerAdjustments: -100 });
    // Each breakdown adds up to the total.
    for (const rows of [m.byCenter, m.byDoctor, m.byModality]) {
      expect(rows.reduce((sum, r) => sum + Math.round(r.margin * 100), 0)).toBe(
        Math.round(m.total.margin * 100),
      );
      expect(rows.reduce((sum, r) => sum + r.studies, 0)).toBe(m.total.studies);
    }
    // Another group's biller sees none of it.
    const stranger = (await signInAt(t, other, ['ROLE_BILLER'])).browser;
    const theirs = await ok<TMarginReport>(
      await stranger.get('/api/tele-payout/margin?from=2026-03-01&to=2026-03-31'),
    );
    expect(theirs.total.studies).toBe(0);
  });
});

describe('the billed parts', () => {
  it('prices a part stored with surrounding spaces as that part, on the invoice and the payout alike', async () => {
    const g = await createTestWorld(t.db);
    const biller = (await signInAt(t, g, ['ROLE_BILLER'])).browser;
    const doc = await signInAt(t, g, ['ROLE_DOCTOR']);
    const from = '2026-01-01';
    await addPrice(biller, { modality: 'CT', amount: 1000, effectiveFrom: from });
    await addPrice(biller, { modality: 'CT', studyPart: 'HEAD', amount: 1500, effectiveFrom: from });
    const rate = (body: Record<string, unknown>) =>
      biller.post('/api/tele-payout/rates', {
        doctorUserId: null,
        effectiveFrom: from,
        charge: 'READ',
        ...body,
      });
    expect((await rate({ modality: 'CT', amount: 300 })).statusCode).toBe(200);
    expect((await rate({ modality: 'CT', studyPart: 'HEAD', amount: 400 })).statusCode).toBe(200);
    const [made] = await signedOffStudies(t.db, { groupId: g.group.id, centerId: g.center.id }, [
      { at: '2026-03-10T12:00:00Z', parts: [' HEAD', 'HEAD ', ' '] },
    ]);
    const row = made!.row;
    await t.db.insert(reports).values({
      reportStatusId: row.id,
      name: 'R',
      contentHtml: '<p>x</p>',
      doctorUserId: doc.user.id,
      typedByUserId: doc.user.id,
      signedOffAt: row.signedOffAt,
    });

    // One read of HEAD on each side, at the HEAD price and the HEAD rate (core billedParts).
    const invoice = await ok<TInvoicePreview>(
      await biller.post('/api/tele-invoices/preview', { centerId: g.center.id, ...PERIOD }),
    );
    expect(invoice).toMatchObject({ studyCount: 1, unpricedCount: 0, subtotal: 1500 });
    const payout = await ok<TPayoutPreview>(
      await biller.post('/api/tele-payout/preview', { ...PERIOD, doctorUserId: doc.user.id }),
    );
    expect(payout.total).toBe(400);
    expect(payout.doctors[0]?.lines.map((l) => [l.charge, l.studyPart, l.amount])).toEqual([
      ['READ', 'HEAD', 400],
    ]);
  });
});
