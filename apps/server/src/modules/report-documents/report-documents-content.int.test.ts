import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { reportStatuses, studies } from '../../db/schema.js';
import { reportingCalls, saved } from '../../../test/reporting.fixtures.js';
import { shareBuilders } from '../../../test/share.fixtures.js';
import { studyActionFixtures } from '../../../test/study-actions.fixtures.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { docxEntry } from '../../../test/documents.js';
import { pdfText as readPdfText } from '../../../test/pdf-text.js';

/*
 * Report documents whose content once made them answer 500 (security issue: documents that fail on
 * content): a signed report holding `<table></table>` (which the sanitizer itself keeps) and ragged
 * tables, through the signed-in PDF and Word calls and the public share page's PDF; a report name
 * with `<`, and one carrying markup meant for the Word file's metadata.
 */

/** One space between pdfjs's runs: the phrases below were written against that reading. */
const pdfText = (bytes: Buffer) => readPdfText(bytes, { between: ' ' });

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { createWorld, createStudy, signIn } = studyActionFixtures(() => t);
const { lock, signOff } = reportingCalls(() => t);
const share = shareBuilders(() => t);

const TABLES =
  '<p>Findings below.</p><table></table>' +
  '<table><tbody><tr><td colspan="5">Organ</td></tr><tr><td>Liver</td></tr></tbody></table>' +
  '<table><tbody><tr><td rowspan="3">Kidney</td></tr><tr></tr></tbody></table><p>End of report.</p>';
const NAME = 'CT <Abdomen> & "contrast"';
const INJECTION = 'x</dc:title><dc:creator>evil</dc:creator><dc:title>';

async function uidOf(id: number): Promise<string> {
  const [row] = await t.db
    .select({ uid: studies.studyInstanceUid })
    .from(reportStatuses)
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .where(eq(reportStatuses.id, id));
  return row?.uid ?? '';
}

describe('report documents of content that once failed them', () => {
  it('a signed report with empty and ragged tables and a name with "<": PDF and Word answer 200', async () => {
    const world = await createWorld();
    const row = await createStudy(world, { status: 'HISTORY_CREATED', patientName: 'Asha Rao' });
    const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    saved(await lock(doctor, row.id));
    saved(await signOff(doctor, row.id, { name: NAME, content: TABLES }));
    const { browser: center } = await signIn(world, ['ROLE_CENTER']);
    const body = { uid: await uidOf(row.id), reportStatusId: row.id };

    const pdf = await center.post('/api/pdf/download', body);
    expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Findings below.');
    expect(text).toContain('Organ');
    expect(text).toContain('End of report.');
    expect(text).toContain(NAME);

    const word = await center.post('/api/pdf/word', body);
    expect(word.statusCode, word.body.slice(0, 300)).toBe(200);
    expect(await docxEntry(word.rawPayload, 'word/document.xml')).toContain('End of report.');
    expect(await docxEntry(word.rawPayload, 'docProps/core.xml')).toMatch(
      /<dc:title>\s*<!\[CDATA\[CT <Abdomen> & "contrast"\]\]>\s*<\/dc:title>/,
    );
  });

  it('a reportName carrying markup stays the title: nothing is added to the Word metadata', async () => {
    const world = await createWorld();
    const row = await createStudy(world, { status: 'HISTORY_CREATED', patientName: 'Asha Rao' });
    const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    saved(await lock(doctor, row.id));
    saved(await signOff(doctor, row.id, { name: 'CT Abdomen', content: '<p>Normal.</p>' }));
    const { browser: center } = await signIn(world, ['ROLE_CENTER']);
    const res = await center.post('/api/pdf/word', {
      uid: await uidOf(row.id),
      reportStatusId: row.id,
      reportName: INJECTION,
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const core = await docxEntry(res.rawPayload, 'docProps/core.xml');
    expect(core).toContain(`<![CDATA[${INJECTION}]]>`);
    // Outside the title's text, one title and one creator: Radflow.
    const markup = core.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
    expect(markup.match(/<dc:creator>/g)).toHaveLength(1);
    expect(markup.match(/<dc:title>/g)).toHaveLength(1);
    expect(markup).toContain('<dc:creator>Radflow</dc:creator>');
  });

  it("the public share page's PDF of such a report answers 200", async () => {
    const w = await share.world();
    const { row, token } = await share.sharedStudy(w);
    await share.signReport(w, row.id, TABLES);
    const res = await t.app.inject({ method: 'GET', url: `/api/share/${token}/report.pdf` });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    expect(await pdfText(res.rawPayload)).toContain('End of report.');
  });
});
