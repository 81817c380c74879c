import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { type TRole, demoEmailForRole } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { centers, groups, studies, users } from '../../db/schema.js';
import { DEMO_FIXTURES_DIR } from '../../paths.js';
import type { TAuth } from '../../plugins/auth.js';
import { ingestInstance } from '../archive/ingest.js';
import { markCompletedUploads } from '../archive/upload-sweep.js';
import { lockForReport } from '../reporting/lock-report.js';
import { saveReport } from '../reporting/save-report.js';
import { assignStudy } from '../study-actions/assign-study.js';
import { rolesOf } from '../current-user/current-user.js';
import { toggleUrgent } from '../study-actions/study-state.js';
import { DEMO_CENTER, DEMO_GROUP_NAME } from './seed-demo.js';

/**
 * The demo studies (issue 21 §8): with SEED_DEMO the first sign-in has something to open. A handful
 * of studies of the repository's own corpus (packages/dicom/test-fixtures; manifest.json names each
 * file's source and licence), stored into the demo center through the real ingest as a center
 * upload, then brought to the states a user meets by the services the API calls: new, assigned,
 * reported, signed off, urgent. Decisions (seed DECISIONS.md):
 * - Each demo study carries UIDs of its own, derived from the corpus file's (same length, so the file
 *   stays valid byte for byte apart from them): sending the corpus files afterwards (the README's
 *   storescu line, a browser story) makes new studies instead of meeting the demo's.
 * - Idempotent per study: a demo study whose (own) Study Instance UID the demo group holds already is
 *   left as it is, whatever became of it; one missing (a first start, a start interrupted before it)
 *   is stored and brought to its state. Nothing is seeded without the demo group, center and accounts.
 */

type TDemoState = 'NEW' | 'ASSIGNED' | 'REPORTED' | 'SIGNED_OFF' | 'URGENT';

interface TDemoStudy {
  state: TDemoState;
  /** Corpus files of one study (manifest paths); a prefix ending in '/' takes every file under it. */
  files: string;
  report?: { name: string; content: string };
}

export const DEMO_STUDIES: readonly TDemoStudy[] = [
  { state: 'NEW', files: 'mr/series_ge_4slices/' },
  { state: 'ASSIGNED', files: 'ct/study_liver/' },
  {
    state: 'REPORTED',
    files: 'mr/series_adc_prostate_20slices/',
    report: {
      name: 'MRI Prostate',
      content:
        '<p><strong>Findings:</strong> ADC map of the prostate, 20 slices.</p><p>Report not yet signed off.</p>',
    },
  },
  {
    state: 'SIGNED_OFF',
    files: 'cr_dx/cr_rg3_jpeg2000_lossy_1760x1760.dcm',
    report: {
      name: 'X-Ray',
      content: '<p><strong>Impression:</strong> Demo report, signed off.</p>',
    },
  },
  { state: 'URGENT', files: 'transfer_syntax/ct_explicit_vr_le.dcm' },
];

const DEMO_UID_SALT = 'radflow-demo-study';

interface TManifestFile {
  path: string;
  licence: string;
  study_instance_uid: string | null;
  series_instance_uid: string | null;
  sop_instance_uid: string | null;
}

/** A UID of the same length as `uid`, the same on every start ('2.25.' and digits, PS3.5 §B.2). */
export function demoUid(uid: string): string {
  const digest = BigInt(`0x${createHash('sha256').update(`${DEMO_UID_SALT}:${uid}`).digest('hex')}`);
  const digits = digest
    .toString()
    .repeat(2)
    .slice(0, uid.length - 5)
    .replace(/^0/, '1');
  return `2.25.${digits}`;
}

const UID_CHAR = /[0-9.]/;

/** `bytes` with every whole occurrence of each UID (not inside a longer one) replaced by its demo UID. */
function withDemoUids(bytes: Buffer, uids: readonly string[]): Buffer {
  const out = Buffer.from(bytes);
  // Longest first, so a UID that starts another is not replaced inside it.
  for (const uid of [...uids].sort((a, b) => b.length - a.length)) {
    const needle = Buffer.from(uid, 'latin1');
    const replacement = demoUid(uid);
    for (let at = out.indexOf(needle); at >= 0; at = out.indexOf(needle, at + 1)) {
      const before = at > 0 ? String.fromCharCode(out[at - 1]!) : '';
      const after = at + needle.length < out.length ? String.fromCharCode(out[at + needle.length]!) : '';
      if (UID_CHAR.test(before) || UID_CHAR.test(after)) continue;
      out.write(replacement, at, 'latin1');
    }
  }
  return out;
}

/** The study's corpus files with their manifest rows; a file the manifest does not list is refused. */
function demoFiles(fixturesDir: string, study: TDemoStudy): TManifestFile[] {
  const manifest = (
    JSON.parse(readFileSync(path.join(fixturesDir, 'manifest.json'), 'utf8')) as { files: TManifestFile[] }
  ).files;
  const files = manifest.filter((f) =>
    study.files.endsWith('/') ? f.path.startsWith(study.files) : f.path === study.files,
  );
  if (files.length === 0) throw new Error(`demo seed: ${study.files} is not in the corpus manifest`);
  for (const f of files) {
    if (!f.licence || !f.study_instance_uid || !f.sop_instance_uid)
      throw new Error(`demo seed: ${f.path} has no licence or UIDs in the manifest`);
  }
  return files;
}

async function demoAuth(ctx: AppContext, groupId: number, role: TRole): Promise<TAuth> {
  const [user] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.groupId, groupId), eq(users.email, demoEmailForRole(role))));
  if (!user) throw new Error(`demo seed: no ${demoEmailForRole(role)}`);
  return { user, roles: rolesOf(user), sessionId: null };
}

/**
 * Stores the demo studies the demo group lacks and brings each to its state. Returns how many it
 * stored (0 on every later start). Without the demo group, center or corpus it stores nothing.
 */
export async function seedDemoStudies(
  ctx: AppContext,
  opts: { fixturesDir?: string; log?: { warn(message: string): void } } = {},
): Promise<number> {
  const fixturesDir = opts.fixturesDir ?? DEMO_FIXTURES_DIR;
  const [place] = await ctx.db
    .select({ groupId: groups.id, centerId: centers.id })
    .from(groups)
    .innerJoin(centers, eq(centers.groupId, groups.id))
    .where(and(eq(groups.name, DEMO_GROUP_NAME), eq(centers.email, DEMO_CENTER.email)))
    .limit(1);
  if (!place) return 0;
  if (!existsSync(path.join(fixturesDir, 'manifest.json'))) {
    opts.log?.warn(`demo studies not seeded: no corpus at ${fixturesDir}`);
    return 0;
  }
  const planned = DEMO_STUDIES.map((study) => {
    const files = demoFiles(fixturesDir, study);
    return { study, files, uid: demoUid(files[0]!.study_instance_uid!) };
  });
  const present = new Set(
    (
      await ctx.db
        .select({ uid: studies.studyInstanceUid })
        .from(studies)
        .where(
          and(
            eq(studies.groupId, place.groupId),
            inArray(
              studies.studyInstanceUid,
              planned.map((p) => p.uid),
            ),
          ),
        )
    ).map((s) => s.uid),
  );
  const missing = planned.filter((p) => !present.has(p.uid));
  if (missing.length === 0) return 0;

  const center = await demoAuth(ctx, place.groupId, 'ROLE_CENTER');
  const assignor = await demoAuth(ctx, place.groupId, 'ROLE_ASSIGNOR');
  const doctor = await demoAuth(ctx, place.groupId, 'ROLE_DOCTOR');
  const started = ctx.now();
  for (const { study, files } of missing) {
    const uids = files.flatMap((f) =>
      [f.study_instance_uid, f.series_instance_uid, f.sop_instance_uid].filter((u): u is string => !!u),
    );
    let reportStatusId: number | null = null;
    for (const file of files) {
      const bytes = withDemoUids(readFileSync(path.join(fixturesDir, file.path)), uids);
      const result = await ingestInstance(
        ctx,
        { bytes: new Uint8Array(bytes) },
        { centerId: place.centerId, source: 'UPLOAD', actorUserId: center.user.id },
      );
      if (!result.ok) throw new Error(`demo seed: ${file.path} was not stored: ${result.reason}`);
      reportStatusId = result.reportStatusId;
    }
    const id = reportStatusId!;
    if (study.state === 'URGENT') await toggleUrgent(ctx, center, id);
    if (study.state === 'NEW' || study.state === 'URGENT') continue;
    await assignStudy(ctx, assignor, { reportId: id, assignedTo: doctor.user.email });
    if (!study.report) continue;
    await lockForReport(ctx, doctor, id, {});
    // A demo study has no saved report yet: its first save starts from no version.
    await saveReport(ctx, doctor, id, {
      ...study.report,
      signOff: study.state === 'SIGNED_OFF',
      baseVersion: null,
    });
  }
  // The demo uploads are whole: the viewer need not say 'not fully uploaded' for the quiet time.
  await markCompletedUploads(ctx, 0, new Date(started.getTime() - 1000));
  return missing.length;
}
