import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ZStudyListPage } from '@radflow/core';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { createTestStudy, createTestWorld, signedInAt } from '../../../test/worklist-test-data.js';
import type * as Repository from './study-list.repository.js';

/*
 * Issue 22 §3: the server checks its busiest contract. Both list calls answer core ZStudyListPage;
 * a row out of contract (a field missing or of another type) is the server's fault and must never
 * reach the browser: the call answers 500 with the error body, and the rows are not sent.
 *
 * The database's constraints keep every stored row inside the contract (NOT NULL columns, the
 * status check), so no data can break it: the break is injected where the rows leave the
 * repository, as a changed query would bring it. The real repository runs underneath.
 */
const fault = vi.hoisted(() => ({ change: null as null | ((row: Record<string, unknown>) => void) }));
vi.mock('./study-list.repository.js', async (importOriginal) => {
  const real = await importOriginal<typeof Repository>();
  return {
    ...real,
    findStudyListRows: async (...args: Parameters<typeof real.findStudyListRows>) => {
      const rows = await real.findStudyListRows(...args);
      const change = fault.change;
      if (change) for (const { row } of rows) change(row as unknown as Record<string, unknown>);
      return rows;
    },
  };
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => {
  fault.change = null;
});

async function adminWithStudy() {
  const place = await createTestWorld(t.db);
  const { row } = await createTestStudy(t.db, {
    groupId: place.group.id,
    centerId: place.center.id,
    row: { patientName: 'CONTRACT^PATIENT' },
  });
  const admin = (await signedInAt(t, place, ['ROLE_ADMIN'])).browser;
  return { row, admin };
}

const LIST_CALLS = ['/api/dicom-web/studies/', '/api/report-status/'] as const;

describe('the study list answer is checked against its contract', () => {
  it('answers rows inside the contract as they are', async () => {
    const { row, admin } = await adminWithStudy();
    for (const path of LIST_CALLS) {
      const res = await admin.post(path, { page: 0, size: 20 });
      expect(res.statusCode, res.body).toBe(200);
      const page = ZStudyListPage.parse(res.json());
      expect(page.content.map((r) => [r.id, r.patientName])).toEqual([[row.id, 'CONTRACT^PATIENT']]);
    }
  });

  it('answers 500, without the rows, when a row lacks a field', async () => {
    const { admin } = await adminWithStudy();
    fault.change = (r) => delete r.patientName;
    for (const path of LIST_CALLS) {
      const res = await admin.post(path, { page: 0, size: 20 });
      expect(res.statusCode, res.body).toBe(500);
      expect(res.json()).toMatchObject({ errorStatusCode: 500, errorDescription: 'Internal server error' });
      expect(res.body).not.toContain('content');
    }
  });

  it('answers 500 when a field has another type or a value outside its set', async () => {
    const { admin } = await adminWithStudy();
    const breaks: Array<(r: Record<string, unknown>) => void> = [
      (r) => (r.id = String(r.id)),
      (r) => (r.urgent = 'false'),
      (r) => (r.patientName = null),
      (r) => (r.status = 'ARCHIVED'),
      (r) => (r.tags = [{ tag: 'no id' }]),
    ];
    for (const change of breaks) {
      fault.change = change;
      const res = await admin.post('/api/dicom-web/studies/', { page: 0, size: 20 });
      expect(res.statusCode, `${change.toString()}: ${res.body}`).toBe(500);
    }
  });
});
