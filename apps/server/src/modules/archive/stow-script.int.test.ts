import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { studies } from '../../db/schema.js';
import { apiTokenFor } from '../../../test/api-token.helpers.js';
import { corpus, fixturePath } from '../../../test/archive/fixtures.js';
import { createArchiveWorld } from '../../../test/archive/helpers.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';

/**
 * The README's STOW-RS recipes (issue 21 §8), run as written against a listening server: the script
 * that builds the multipart body and sends it, and the body it writes for curl.
 */

const execFileAsync = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../../../../..');
const SCRIPT = path.join(REPO, 'scripts/stow.mjs');

let t: TestApp;
let base: string;
let work: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  work = mkdtempSync(path.join(tmpdir(), 'radflow-stow-'));
});
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await t.close();
});

/** Runs a command to its end; its exit code and output (a failing exit is an answer, not a throw). */
async function run(file: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await execFileAsync(file, args, {
      cwd: REPO,
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function studyOf(groupId: number, fixture: string) {
  const uid = corpus.find((f) => f.path === fixture)!.study_instance_uid!;
  const [study] = await t.db
    .select({ instanceCount: studies.instanceCount })
    .from(studies)
    .where(and(eq(studies.groupId, groupId), eq(studies.studyInstanceUid, uid)));
  return study;
}

describe('scripts/stow.mjs', () => {
  it('sends a folder and files of several transfer syntaxes in one go, and names what was refused', async () => {
    const world = await createArchiveWorld(t);
    const token = await apiTokenFor(t, world.center.user);
    const res = await run(process.execPath, [
      SCRIPT,
      '--url',
      base,
      '--token',
      token,
      fixturePath('mr/series_ge_4slices'),
      fixturePath('transfer_syntax/ct_jpeg2000.dcm'),
      fixturePath('transfer_syntax/ct_explicit_vr_be.dcm'),
      fixturePath('us/us_palette_color_2frames_rle.dcm'),
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('7 stored, 0 not stored, 7 files');
    expect(await studyOf(world.group.id, 'mr/series_ge_4slices/IM-0001-0112-0001.dcm')).toEqual({
      instanceCount: 4,
    });
    expect(await studyOf(world.group.id, 'transfer_syntax/ct_jpeg2000.dcm')).toEqual({ instanceCount: 2 });

    const refused = await run(process.execPath, [
      SCRIPT,
      '--url',
      base,
      '--token',
      token,
      fixturePath('bad/not_dicom_text.dcm'),
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('0 stored, 1 not stored, 1 files');
    expect(refused.stderr).toMatch(/not stored: /);

    const noToken = await run(process.execPath, [
      SCRIPT,
      '--url',
      base,
      '--token',
      'wrong',
      fixturePath('ct'),
    ]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(/HTTP 401/);
  });

  it("writes a body that the README's curl line stores", async () => {
    const world = await createArchiveWorld(t);
    const token = await apiTokenFor(t, world.center.user);
    const body = path.join(work, 'body.mime');
    // As README "Sending studies in": the script prints the Content-Type with its boundary.
    const recipe = [
      `CT=$(node scripts/stow.mjs --body "$BODY" "$FILES")`,
      `curl -sS -H "Authorization: Bearer $TOKEN" -H "Content-Type: $CT" --data-binary @"$BODY" "$URL/api/dicomweb/studies"`,
    ].join('\n');
    const res = await run('bash', ['-ec', recipe], {
      BODY: body,
      FILES: fixturePath('ct/study_liver'),
      TOKEN: token,
      URL: base,
    });
    expect(res.code, res.stderr).toBe(0);
    const answer = JSON.parse(res.stdout) as Record<string, { Value?: unknown[] }>;
    expect(answer['00081199']?.Value).toHaveLength(4);
    expect(answer['00081198']).toBeUndefined();
    expect(await studyOf(world.group.id, 'ct/study_liver/ct_liver_01.dcm')).toEqual({ instanceCount: 4 });
  });
});
