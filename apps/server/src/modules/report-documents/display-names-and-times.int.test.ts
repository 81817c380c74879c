import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import yauzl from 'yauzl';
import type { TSharePage } from '@radflow/core';
import { messageOutbox, reportStatuses, reports } from '../../db/schema.js';
import { type TestApp, createTestApp, setGroupPreference, uniqueMobile } from '../../../test/test-app.js';
import { shareBuilders } from '../../../test/share.fixtures.js';
import { signedInAt } from '../../../test/worklist-test-data.js';
import { pdfText as readPdfText } from '../../../test/pdf-text.js';

/*
 * Issue 21 §1: a DICOM person name is shown formatted (core formatPersonName), never as stored with
 * '^' and '=', and a time is shown in the group's display time zone with its label (core
 * formatDisplayTime), in every document and page the server makes: the PDF, the Word file, the
 * public share page, the share e-mail and SMS. The stored row keeps the raw value.
 */

/** One space between pdfjs's runs: the phrases below were written against that reading. */
const pdfText = (bytes: Buffer) => readPdfText(bytes, { between: ' ' });

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
const build = shareBuilders(() => t);

const RAW_PATIENT = 'Hong^Gildong=洪^吉洞=홍^길동';
const PATIENT = 'Gildong Hong (洪吉洞, 홍길동)';
const RAW_REFERRER = 'Kim^Minjun^^Dr.';
const REFERRER = 'Dr. Minjun Kim';
/** 20:04:09 UTC: 01:34:09 the next day at +05:30, 21:04:09 in Berlin (winter). */
const SIGNED_OFF_AT = new Date('2026-01-05T20:04:09Z');

function docxText(bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== 'word/document.xml') return zip.readEntry();
        zip.openReadStream(entry, (err, stream) => {
          if (err) return reject(err);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () =>
            // The text runs without their markup.
            resolve(
              Buffer.concat(chunks)
                .toString('utf8')
                .replace(/<[^>]+>/g, ''),
            ),
          );
        });
      });
      zip.on('end', () => reject(new Error('word/document.xml not in the docx')));
      zip.readEntry();
    });
  });
}

/** A signed-off study of a Korean patient (all three PN groups) with a referring physician. */
async function koreanStudy(displayTimeZone?: string, studyName = 'MRI BRAIN') {
  const w = await build.world();
  if (displayTimeZone) await setGroupPreference(t.db, w.group.id, 'ADMIN_PREFERENCES', { displayTimeZone });
  const { row, study, token } = await build.sharedStudy(w, {
    referringPhysicianName: RAW_REFERRER,
    studyName,
  });
  await t.db.update(reportStatuses).set({ patientName: RAW_PATIENT }).where(eq(reportStatuses.id, row.id));
  await t.db.insert(reports).values({
    reportStatusId: row.id,
    name: 'MRI Brain',
    contentHtml: '<p>No acute bleed.</p>',
    doctorUserId: w.doctor.id,
    typedByUserId: w.doctor.id,
    signedOffByUserId: w.doctor.id,
    signedOffAt: SIGNED_OFF_AT,
    signatureName: 'Dr Rao, MD',
  });
  await t.db
    .update(reportStatuses)
    .set({ status: 'SIGNED_OFF', signedOffAt: SIGNED_OFF_AT, firstSignedOffAt: SIGNED_OFF_AT })
    .where(eq(reportStatuses.id, row.id));
  const center = (await signedInAt(t, w, ['ROLE_CENTER'])).browser;
  return { w, row, token, center, body: { uid: study.studyInstanceUid, reportStatusId: row.id } };
}

describe('person names in documents and pages', () => {
  it('the PDF shows the formatted patient and referring physician, no raw ^ or =', async () => {
    const { center, body } = await koreanStudy();
    const res = await center.post('/api/pdf/download', body);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const text = await pdfText(res.rawPayload);
    // The Han and Hangul glyphs are the PDF fonts' work (issue 21 §1 first item); the order is ours.
    expect(text).toContain('Gildong Hong');
    expect(text).toContain(REFERRER);
    expect(text).not.toMatch(/[\^=]/);
  });

  it('the Word file shows every group of the name, formatted', async () => {
    const { center, body } = await koreanStudy();
    const res = await center.post('/api/pdf/word', body);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const text = await docxText(res.rawPayload);
    expect(text).toContain(PATIENT);
    expect(text).toContain(REFERRER);
    expect(text).not.toContain('^');
  });

  it('the share page answers the formatted names; the row keeps the raw value', async () => {
    const { row, token } = await koreanStudy();
    const res = await t.app.inject({ method: 'GET', url: `/api/share/${token}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TSharePage>()).toMatchObject({ patientName: PATIENT, referringPhysician: REFERRER });
    const [stored] = await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, row.id));
    expect(stored).toMatchObject({ patientName: RAW_PATIENT, referringPhysicianName: RAW_REFERRER });
  });

  it('the share e-mail and SMS name the patient and greet the physician formatted', async () => {
    const { row, center } = await koreanStudy();
    const to = `ref-${row.id}@clinic.test`;
    expect((await center.post(`/api/report-status/send-email/${row.id}`, { email: to })).statusCode).toBe(
      200,
    );
    const [mail] = await t.db.select().from(messageOutbox).where(eq(messageOutbox.recipient, to));
    expect(mail?.subject).toBe(`Report shared with you: ${PATIENT}, MRI BRAIN`);
    expect(mail?.body).toContain(`The report of ${PATIENT}, MRI BRAIN`);

    const number = uniqueMobile();
    const sms = await center.post(`/api/report-status/send-message/${row.id}`, {
      number,
      referringPhysician: RAW_REFERRER,
    });
    expect(sms.statusCode, sms.body).toBe(200);
    const [message] = await t.db.select().from(messageOutbox).where(eq(messageOutbox.recipient, number));
    expect(message?.body).toMatch(
      new RegExp(`^Dear ${REFERRER}, the report of ${PATIENT.replace(/[()]/g, '\\$&')}, MRI BRAIN`),
    );
  });
});

describe('a study description with vendor ^ separators (Siemens Program^Protocol)', () => {
  it('reads with spaces in the PDF, the share page and the e-mail', async () => {
    const { row, center, body, token } = await koreanStudy(undefined, 'Rorden^Rorden_Prisma');
    const pdf = await pdfText((await center.post('/api/pdf/download', body)).rawPayload);
    expect(pdf).toContain('Study Rorden Rorden_Prisma');
    expect(pdf).not.toContain('^');
    const page = (await t.app.inject({ method: 'GET', url: `/api/share/${token}` })).json<TSharePage>();
    expect(page.studyName).toBe('Rorden Rorden_Prisma');
    const to = `ref-desc-${row.id}@clinic.test`;
    expect((await center.post(`/api/report-status/send-email/${row.id}`, { email: to })).statusCode).toBe(
      200,
    );
    const [mail] = await t.db.select().from(messageOutbox).where(eq(messageOutbox.recipient, to));
    expect(mail?.subject).toBe(`Report shared with you: ${PATIENT}, Rorden Rorden_Prisma`);
  });
});

describe('times in documents and pages: the group display time zone, labelled', () => {
  it("by default the spec's +05:30: the PDF and the Word file say so", async () => {
    const { center, body } = await koreanStudy();
    const pdf = await pdfText((await center.post('/api/pdf/download', body)).rawPayload);
    expect(pdf).toContain('Signed off: 2026-01-06 01:34:09 UTC+05:30');
    const word = await docxText((await center.post('/api/pdf/word', body)).rawPayload);
    expect(word).toContain('Signed off: 2026-01-06 01:34:09 UTC+05:30');
  });

  it("a group's own zone: documents and the share page follow it", async () => {
    const { center, body, token } = await koreanStudy('Europe/Berlin');
    const pdf = await pdfText((await center.post('/api/pdf/download', body)).rawPayload);
    expect(pdf).toContain('Signed off: 2026-01-05 21:04:09 UTC+01:00');
    const shared = await t.app.inject({ method: 'GET', url: `/api/share/${token}/report.pdf` });
    expect(shared.statusCode).toBe(200);
    expect(await pdfText(shared.rawPayload)).toContain('Signed off: 2026-01-05 21:04:09 UTC+01:00');
    // The share page is public (no session, no group settings): it carries the zone its times are shown in.
    const page = (await t.app.inject({ method: 'GET', url: `/api/share/${token}` })).json<TSharePage>();
    expect(page.displayTimeZone).toBe('Europe/Berlin');
  });

  it('a zone Intl does not know is refused by the group settings call, naming the field', async () => {
    const { w } = await koreanStudy();
    const admin = (await signedInAt(t, w, ['ROLE_ADMIN'])).browser;
    const bad = await admin.post('/api/setting/update-group/ADMIN_PREFERENCES', {
      displayTimeZone: 'Mars/Olympus',
    });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.body).toContain('displayTimeZone');
    const good = await admin.post('/api/setting/update-group/ADMIN_PREFERENCES', {
      displayTimeZone: 'Asia/Seoul',
    });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json()).toMatchObject({ displayTimeZone: 'Asia/Seoul' });
  });
});
