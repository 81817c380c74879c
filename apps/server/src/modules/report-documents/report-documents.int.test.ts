import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { REPORT_DOCUMENT_MESSAGES as M, REPORTING_MESSAGES, type TRole } from '@radflow/core';
import type { LightMyRequestResponse } from 'fastify';
import { reportingCalls, saved } from '../../../test/reporting.fixtures.js';
import { postForm } from '../../../test/setting-assets.helpers.js';
import { studyActionFixtures } from '../../../test/study-actions.fixtures.js';
import { type TestApp, type TestClient, createTestApp } from '../../../test/test-app.js';
import { isValidOutcome, manifest, readFixture } from '../../../../../packages/dicom/src/test-fixtures.js';
import { ingestInstance } from '../archive/ingest.js';
import { reportStatuses, studies, viewerKeyImages } from '../../db/schema.js';
import { eq } from 'drizzle-orm';
import { docxEntry } from '../../../test/documents.js';
import { pdfPageTexts } from '../../../test/pdf-text.js';

/**
 * Report documents (issue 7 §4): POST /api/pdf/download, /download-images, /word. The PDF is read
 * back with pdfjs (its text) and its raw objects (its images); the docx is unzipped.
 */

/** Each page's text, one space between pdfjs's runs (pdfjs splits runs at spaces). */
const pdfText = (bytes: Buffer) => pdfPageTexts(bytes, { between: ' ' });

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { createWorld, createStudy, signIn, readRow, readEvents } = studyActionFixtures(() => t);
const { lock, save, signOff, addendum } = reportingCalls(() => t);

const PATIENT = 'Αλέξανδρος Иванов';
const BODY = 'Mild mucosal thickening of the left maxillary sinus.';

/**
 * Image XObjects in the PDF (pdfkit writes PDF 1.3: every object dictionary is plain text), less the
 * soft masks that carry a png's alpha channel (the QR's): one per picture.
 */
function imageCount(bytes: Buffer): number {
  const raw = bytes.toString('latin1');
  return raw.split('/Subtype /Image').length - raw.split('/SMask ').length;
}

/** The names in a zip (the docx). */
async function zipNames(bytes: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.readEntry();
    });
  });
}

/** An opaque png (no alpha: one image object in the PDF). */
const solidPng = (width: number, height: number, rgb: [number, number, number]) =>
  sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .png()
    .toBuffer();

type TWorld = Awaited<ReturnType<typeof createWorld>>;

/** A study signed off by a doctor, with an addendum; the center's letterhead and report text. */
async function signedOffStudy(world: TWorld) {
  const row = await createStudy(world, {
    status: 'HISTORY_CREATED',
    patientName: PATIENT,
    studyName: 'CT PNS',
  });
  const { browser: doctor, user: doctorUser } = await signIn(world, ['ROLE_DOCTOR']);
  saved(await lock(doctor, row.id));
  saved(await signOff(doctor, row.id, { name: 'CT Paranasal sinuses', content: `<p>${BODY}</p>` }));
  saved(await addendum(doctor, row.id, '<p>Addendum: no polyp.</p>'));
  const { browser: center } = await signIn(world, ['ROLE_CENTER']);
  return { row, doctor, doctorUser, center };
}

async function giveLetterhead(center: TestClient) {
  const layout = await postForm(
    center,
    '/api/center-setting/update/',
    { pdf_margin_top: '3', pdf_margin_bottom: '2.5', pdf_margin_left: '2', pdf_margin_right: '2' },
    [
      { field: 'header', bytes: await solidPng(800, 120, [20, 60, 160]) },
      { field: 'footer', bytes: await solidPng(800, 60, [160, 60, 20]) },
    ],
  );
  expect(layout.statusCode, layout.body).toBe(200);
  const text = await center.post('/api/setting/update/REPORT_TEXT', {
    header: '<p><strong>City Imaging Centre</strong></p>',
    footer: '<p>Thank you for the referral.</p>',
    disclaimer: '<p>This report is not valid for medico-legal purposes.</p>',
  });
  expect(text.statusCode, text.body).toBe(200);
}

const body = (row: { id: number }, uid: string, extra: Record<string, unknown> = {}) => ({
  uid,
  reportStatusId: row.id,
  ...extra,
});

function ok(res: LightMyRequestResponse, type: string): Buffer {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toContain(type);
  return res.rawPayload;
}

async function uidOf(id: number): Promise<string> {
  const [row] = await t.db
    .select({ uid: studies.studyInstanceUid })
    .from(reportStatuses)
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .where(eq(reportStatuses.id, id));
  return row?.uid ?? '';
}

describe('the PDF', () => {
  it('holds the patient, the report, the doctor, the addendum, the report text and page numbers', async () => {
    const world = await createWorld();
    const { row, doctorUser, center } = await signedOffStudy(world);
    await giveLetterhead(center);
    const uid = await uidOf(row.id);

    const res = await center.post('/api/pdf/download', body(row, uid, { showTemplate: false }));
    const pdf = ok(res, 'application/pdf');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = (await pdfText(pdf)).join('\n');
    expect(text).toContain(PATIENT);
    expect(text).toContain(BODY);
    expect(text).toContain(doctorUser.identifier);
    expect(text).toContain('Addendum: no polyp.');
    expect(text).toContain('City Imaging Centre');
    expect(text).toContain('Thank you for the referral.');
    // pdfjs splits the hyphenated word at its line break.
    expect(text).toContain('This report is not valid for medico');
    expect(text).toMatch(/Page 1 of \d/);
    expect(text).not.toContain(M.preliminary);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="[^"]+\.pdf"; filename\*=UTF-8''/,
    );
    expect(
      decodeURIComponent(
        /filename\*=UTF-8''(.+)$/.exec(String(res.headers['content-disposition']))?.[1] ?? '',
      ),
    ).toBe(`${PATIENT} - CT PNS.pdf`);
  });

  it('with header carries the letterhead images; without, the margins stay blank', async () => {
    const world = await createWorld();
    const { row, center } = await signedOffStudy(world);
    await giveLetterhead(center);
    const uid = await uidOf(row.id);
    const plain = ok(await center.post('/api/pdf/download', body(row, uid, { showTemplate: false })), 'pdf');
    const withHeader = ok(
      await center.post('/api/pdf/download', body(row, uid, { showTemplate: true })),
      'pdf',
    );
    // The header and the footer image: two image objects, each drawn on every page.
    expect(imageCount(plain)).toBe(0);
    expect(imageCount(withHeader)).toBe(2);
  });

  it('the letterhead and the QR follow the group switches when the call does not choose', async () => {
    const world = await createWorld({ downloadReportWithLetterhead: true, appendQrCodeToReport: true });
    const { row, center } = await signedOffStudy(world);
    await giveLetterhead(center);
    const uid = await uidOf(row.id);
    const pdf = ok(await center.post('/api/pdf/download', body(row, uid)), 'pdf');
    // Header, footer and the QR.
    expect(imageCount(pdf)).toBe(3);
    const { shareLink } = await readRow(row.id);
    expect(shareLink).toBeTruthy();
    const text = (await pdfText(pdf)).join('\n');
    expect(text).toContain('Scan to open this report online');
    // The address may break across lines: compare without spaces.
    expect(text.replace(/\s/g, '')).toContain(`/share?link=${shareLink}`);
  });
});

describe('Word', () => {
  it('holds the same report text', async () => {
    const world = await createWorld();
    const { row, center } = await signedOffStudy(world);
    const uid = await uidOf(row.id);
    const res = await center.post('/api/pdf/word', body(row, uid));
    const docx = ok(res, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const xml = await docxEntry(docx, 'word/document.xml');
    expect(xml).toContain(BODY);
    expect(xml).toContain(PATIENT);
    expect(xml).toContain('Addendum: no polyp.');
    expect(res.headers['content-disposition']).toMatch(/\.docx"; filename\*=/);
    expect((await zipNames(docx)).filter((n) => n.startsWith('word/media/') && !n.endsWith('/'))).toEqual([]);
  });

  it('numbers its pages in the footer as "Page n", right-aligned like the PDF', async () => {
    const world = await createWorld();
    const { row, center } = await signedOffStudy(world);
    const uid = await uidOf(row.id);
    const docx = ok(await center.post('/api/pdf/word', body(row, uid)), 'document');
    const footer = await docxEntry(docx, 'word/footer1.xml');
    // One paragraph: the words, then Word's PAGE field (the number Word fills in on each page). The
    // converter writes the main namespace as the default one: element names may lack the w: prefix.
    const paragraph = /<(?:w:)?p>[\s\S]*?<\/(?:w:)?p>/.exec(footer)?.[0] ?? '';
    expect(paragraph).toMatch(/<(?:w:)?jc [^>]*val="right"/);
    expect(paragraph).toMatch(
      /<(?:w:)?t[^>]*>Page\u00a0<\/(?:w:)?t>[\s\S]*<(?:w:)?fldSimple [^>]*instr="PAGE"/,
    );
    // The converter offers no total pages field (NUMPAGES): DECISIONS.md.
    expect(footer).not.toContain('NUMPAGES');
  });

  it('with header puts the letterhead images in the page header and footer', async () => {
    const world = await createWorld();
    const { row, center } = await signedOffStudy(world);
    await giveLetterhead(center);
    const uid = await uidOf(row.id);
    const docx = ok(await center.post('/api/pdf/word', body(row, uid, { showTemplate: true })), 'document');
    const names = await zipNames(docx);
    expect(names.filter((n) => n.startsWith('word/media/') && !n.endsWith('/'))).toHaveLength(2);
    expect(await docxEntry(docx, 'word/header1.xml')).toContain('drawing');
    expect(await docxEntry(docx, 'word/footer1.xml')).toContain('drawing');
  });
});

describe('who gets a document', () => {
  it('a report not signed off: 409 for the center, a PRELIMINARY copy for its doctor', async () => {
    const world = await createWorld();
    const row = await createStudy(world, { status: 'HISTORY_CREATED' });
    const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    const { browser: center } = await signIn(world, ['ROLE_CENTER']);
    const uid = await uidOf(row.id);
    // No report at all yet.
    let res = await center.post('/api/pdf/download', body(row, uid));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ errorDescription: M.noReport });
    saved(await lock(doctor, row.id));
    saved(await save(doctor, row.id, { content: `<p>${BODY}</p>` }));

    res = await center.post('/api/pdf/download', body(row, uid));
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ errorDescription: M.notSignedOff });
    expect((await center.post('/api/pdf/word', body(row, uid))).statusCode).toBe(409);

    const draft = ok(await doctor.post('/api/pdf/download', body(row, uid)), 'pdf');
    const text = (await pdfText(draft)).join('\n');
    expect(text).toContain(M.preliminary);
    expect(text).toContain(BODY);
    // A writer may proof-read, never print a preliminary.
    res = await doctor.post('/api/pdf/download', body(row, uid, { print: true }));
    expect(res.statusCode).toBe(409);
    expect((await readRow(row.id)).printedAt).toBeNull();
  });

  it('hidden Download and Print is 403; an unknown row 404; a wrong uid 400 naming uid', async () => {
    const world = await createWorld({ disableDownloadZipForDoctor: true });
    const { row, doctor, center } = await signedOffStudy(world);
    const uid = await uidOf(row.id);
    let res = await doctor.post('/api/pdf/download', body(row, uid));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ errorDescription: M.hidden });

    res = await center.post('/api/pdf/download', { uid, reportStatusId: row.id + 100000 });
    expect(res.statusCode).toBe(404);
    const other = await createWorld();
    const { browser: stranger } = await signIn(other, ['ROLE_CENTER']);
    expect((await stranger.post('/api/pdf/download', body(row, uid))).statusCode).toBe(404);

    res = await center.post('/api/pdf/download', body(row, '1.2.3.4'));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ additionalInfo: 'uid' });
  });

  it('customHtml: for those who may edit the report, cleaned; refused to read-only roles and centers that may not edit', async () => {
    const world = await createWorld({ disableReportEditingForCenter: true });
    const { row, doctor, center } = await signedOffStudy(world);
    const uid = await uidOf(row.id);
    const custom = '<p>Unsaved wording.</p><img src="https://example.com/x.png"><script>alert(1)</script>';
    const pdf = ok(await doctor.post('/api/pdf/download', body(row, uid, { customHtml: custom })), 'pdf');
    const text = (await pdfText(pdf)).join('\n');
    expect(text).toContain('Unsaved wording.');
    expect(text).not.toContain(BODY);
    expect(text).not.toContain('alert(1)');
    expect(imageCount(pdf)).toBe(0);

    const res = await center.post('/api/pdf/download', body(row, uid, { customHtml: custom }));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ additionalInfo: 'customHtml' });
  });
});

describe('printing and Reprint Needed', () => {
  it('a print records printed_at; a re-sign-off asks for a reprint; the reprint clears it', async () => {
    const world = await createWorld();
    const { row, doctor, center } = await signedOffStudy(world);
    const uid = await uidOf(row.id);
    t.clock.advance(60);
    ok(await center.post('/api/pdf/download', body(row, uid, { print: true })), 'pdf');
    let state = await readRow(row.id);
    expect(state.printedAt).not.toBeNull();
    expect(state.signedOffAfterPrint).toBe(false);
    expect((await readEvents(row.id)).at(-1)).toMatchObject({
      eventType: 'REPORT_PRINTED',
      fromStatus: 'SIGNED_OFF',
      toStatus: 'SIGNED_OFF',
    });

    // A plain download is not a print.
    const printedAt = state.printedAt;
    t.clock.advance(60);
    ok(await center.post('/api/pdf/download', body(row, uid)), 'pdf');
    expect((await readRow(row.id)).printedAt).toEqual(printedAt);

    const again = saved(await signOff(doctor, row.id, { content: '<p>Revised.</p>' }));
    expect(again.alert).toBe(REPORTING_MESSAGES.signedOffAgain);
    expect((await readRow(row.id)).signedOffAfterPrint).toBe(true);

    t.clock.advance(60);
    const reprint = ok(await center.post('/api/pdf/download', body(row, uid, { print: true })), 'pdf');
    expect((await pdfText(reprint)).join('\n')).toContain('Revised.');
    state = await readRow(row.id);
    expect(state.signedOffAfterPrint).toBe(false);
    expect(state.printedAt?.getTime()).toBeGreaterThan(printedAt?.getTime() ?? 0);
  });

  it('an admin of the group gets the PDF with images (no key images marked: the report alone)', async () => {
    const world = await createWorld();
    const { row } = await signedOffStudy(world);
    const uid = await uidOf(row.id);
    const roles: TRole[] = ['ROLE_ADMIN'];
    const { browser: admin } = await signIn(world, roles);
    ok(await admin.post('/api/pdf/download-images', body(row, uid)), 'pdf');
  });
});

describe('key images', () => {
  it('PDF with images carries the frames the doctor marked, rendered by the WADO service', async () => {
    const world = await createWorld();
    const file = manifest.files.find(
      (f) =>
        isValidOutcome(f.expected) &&
        f.has_pixel_data &&
        f.frames === 1 &&
        f.transfer_syntax_uid === '1.2.840.10008.1.2.1',
    );
    if (!file) throw new Error('the corpus has no plain single-frame image');
    const stored = await ingestInstance(
      t.app.ctx,
      { bytes: readFixture(file.path) },
      { centerId: world.center.id, source: 'STOW' },
    );
    if (!stored.ok) throw new Error(stored.reason);
    const [row] = await t.db
      .select({ id: reportStatuses.id })
      .from(reportStatuses)
      .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
      .where(eq(studies.studyInstanceUid, stored.studyInstanceUid));
    if (!row) throw new Error('ingest made no report row');
    const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    saved(await lock(doctor, row.id));
    saved(await signOff(doctor, row.id, { content: `<p>${BODY}</p>` }));
    await t.db.insert(viewerKeyImages).values({
      reportStatusId: row.id,
      seriesInstanceUid: stored.seriesInstanceUid,
      sopInstanceUid: stored.sopInstanceUid,
      frameNumber: 1,
    });
    const { browser: center } = await signIn(world, ['ROLE_CENTER']);
    const uid = stored.studyInstanceUid;
    const plain = ok(await center.post('/api/pdf/download', body(row, uid, { showTemplate: false })), 'pdf');
    const withImages = ok(
      await center.post('/api/pdf/download-images', body(row, uid, { showTemplate: false })),
      'pdf',
    );
    expect(imageCount(plain)).toBe(0);
    expect(imageCount(withImages)).toBe(1);
    const pages = await pdfText(withImages);
    expect(pages.at(-1)).toContain('Key images');
  });
});

describe('the calls', () => {
  it('are in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{ paths: object }>();
    for (const path of ['/api/pdf/download', '/api/pdf/download-images', '/api/pdf/word']) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
  });
});
