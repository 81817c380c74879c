import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { corpus, readFixture } from '../../../test/archive/fixtures.js';
import { createArchiveWorld } from '../../../test/archive/helpers.js';

/*
 * STOW-RS failures carry their reason (archive DECISIONS.md "STOW-RS failure reasons"): each
 * FailedSOPSequence item has the Failure Reason, the reason in words as Error Comment (0000,0902)
 * and the SOP Class / Instance UIDs when the part could be read.
 */

let t: TestApp;
let world: Awaited<ReturnType<typeof createArchiveWorld>>;
beforeAll(async () => {
  t = await createTestApp();
  world = await createArchiveWorld(t);
});
afterAll(() => t.close());

type Item = Record<string, { vr: string; Value?: unknown[] }>;
const failedItems = (body: Record<string, { Value?: unknown[] }>) =>
  (body['00081198']?.Value ?? []) as Item[];

async function stow(parts: Array<{ bytes: Uint8Array; type?: string }>, url = '/api/dicomweb/studies') {
  const boundary = `b-${Math.random().toString(36).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Type: ${part.type ?? 'application/dicom'}\r\n\r\n`),
      Buffer.from(part.bytes),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const res = await world.center.client.request({
    method: 'POST',
    url,
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/related; type="application/dicom"; boundary=${boundary}` },
  });
  return { res, items: failedItems(res.json()) };
}

describe('STOW-RS failure reasons', () => {
  it('an unreadable part: 0xC000 and why, no UIDs', async () => {
    const { res, items } = await stow([{ bytes: readFixture('bad/not_dicom_text.dcm') }]);
    expect(res.statusCode).toBe(409);
    expect(items).toHaveLength(1);
    expect(items[0]?.['00081197']?.Value).toEqual([0xc000]);
    expect(items[0]?.['00000902']).toMatchObject({ vr: 'LO', Value: [expect.stringMatching(/\w{3,}/)] });
    expect(items[0]?.['00081155']?.Value).toBeUndefined();
  });

  it('a part that is not application/dicom says its type', async () => {
    const { items } = await stow([{ bytes: Buffer.from('{}'), type: 'application/json' }]);
    expect(items[0]?.['00000902']?.Value).toEqual([expect.stringContaining('application/json')]);
  });

  it('an instance of another study than the path: 0xA900, why, and its SOP Class and Instance UIDs', async () => {
    const file = corpus.find((f) => f.path === 'ct/ct_small_128x128_explicit_le.dcm')!;
    const { res, items } = await stow([{ bytes: readFixture(file.path) }], '/api/dicomweb/studies/1.2.3.4');
    expect(res.statusCode).toBe(409);
    expect(items[0]).toMatchObject({
      '00081150': { vr: 'UI', Value: [expect.stringMatching(/^1\.2\.840\.10008\.5\.1\.4\.1\.1\./)] },
      '00081155': { vr: 'UI', Value: [file.sop_instance_uid] },
      '00081197': { vr: 'US', Value: [0xa900] },
      '00000902': { vr: 'LO', Value: [expect.stringContaining('1.2.3.4')] },
    });
  });
});
