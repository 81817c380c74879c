import { and, asc, eq, sql } from 'drizzle-orm';
import {
  AppError,
  MESSAGES,
  type TWeasisLaunch,
  buildWeasisLaunchUrl,
  groupFlags,
  uploadStateOf,
  viewerEntry,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import { instances, series, studies } from '../../db/schema.js';
import { MESSAGE_NOT_ALLOWED, type TAuth } from '../../plugins/auth.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { authOfStudyToken } from '../study-tokens/study-token-auth.js';
import { WEASIS_TOKEN_TTL_SECONDS, signWeasisToken } from '../study-tokens/weasis-token.js';
import { loadViewerStudy } from './viewer-study.js';

/**
 * GET /api/viewer/:id/weasis (issue 5 §4 openInWeasis): a weasis:// URL that makes Weasis fetch our
 * manifest. 403 unless the group's openInWeasis is on, or when the viewer would refuse the study.
 */
export async function launchWeasis(
  ctx: AppContext,
  auth: TAuth,
  id: number,
  publicUrl: string,
): Promise<TWeasisLaunch> {
  const study = await loadViewerStudy(ctx.db, auth, id);
  const flags = groupFlags(await loadGroupPreferences(ctx.db, study.groupId));
  if (!flags.openInWeasis) throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED);
  const entry = viewerEntry({ status: study.status, upload: uploadStateOf(study) });
  if (!entry.allowed) throw new AppError('FORBIDDEN', entry.message ?? MESSAGE_NOT_ALLOWED);
  const token = await signWeasisToken(ctx, {
    reportStatusId: study.id,
    userId: auth.user.id,
    expiresAt: Math.floor(ctx.now().getTime() / 1000) + WEASIS_TOKEN_TTL_SECONDS,
  });
  return { launchUrl: buildWeasisLaunchUrl(`${publicUrl}/api/viewer/weasis-manifest/${token}`) };
}

/** Escapes an attribute value; control characters XML 1.0 cannot hold (a stray byte in a DICOM string) are dropped. */
const xmlEscape = (value: string | number | null) =>
  String(value ?? '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const attributes = (values: Record<string, string | number | null>) =>
  Object.entries(values)
    .filter(([, v]) => v !== null && v !== '')
    .map(([k, v]) => ` ${k}="${xmlEscape(v)}"`)
    .join('');

/**
 * GET /api/viewer/weasis-manifest/:token: the Weasis XML manifest (xsd 2.5) of the token's study,
 * from the index: one arcQuery on our WADO-URI (every Weasis since 2.5 reads it; the instances are
 * listed, so Weasis needs no query of its own), the token as its Authorization header, then
 * Patient/Study/Series/Instance. The caller's access is checked as for any read of the study.
 */
export async function weasisManifest(ctx: AppContext, token: string, publicUrl: string): Promise<string> {
  const { auth, grant } = await authOfStudyToken(ctx, token);
  // The user must still see the row (else 404), as for any read of the study.
  const study = await loadViewerStudy(ctx.db, auth, grant.reportStatusId);
  const [archived] = await ctx.db.select().from(studies).where(eq(studies.id, study.studyId));
  if (!archived) throw new AppError('NOT_FOUND', MESSAGES.notFound);
  const rows = await ctx.db
    .select({
      seriesId: series.id,
      seriesInstanceUid: series.seriesInstanceUid,
      modality: series.modality,
      seriesNumber: series.seriesNumber,
      seriesDescription: series.seriesDescription,
      sopInstanceUid: instances.sopInstanceUid,
      sopClassUid: instances.sopClassUid,
      instanceNumber: instances.instanceNumber,
    })
    .from(series)
    .innerJoin(instances, and(eq(instances.seriesId, series.id), eq(instances.studyId, series.studyId)))
    .where(eq(series.studyId, archived.id))
    .orderBy(
      sql`${series.seriesNumber} asc nulls last`,
      asc(series.id),
      sql`${instances.instanceNumber} asc nulls last`,
      asc(instances.id),
    );

  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<manifest xmlns="http://www.weasis.org/xsd/2.5" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
    `<arcQuery${attributes({ arcId: 'radflow', baseUrl: `${publicUrl}/api/dicomweb/wado`, requireOnlySOPInstanceUID: 'false' })}>`,
    `<httpTag${attributes({ key: 'Authorization', value: `Bearer ${token}` })}/>`,
    `<Patient${attributes({
      PatientID: archived.patientId,
      PatientName: archived.patientName,
      PatientBirthDate: archived.patientBirthDate,
      PatientSex: archived.patientSex,
    })}>`,
    `<Study${attributes({
      StudyInstanceUID: archived.studyInstanceUid,
      StudyDate: archived.studyDate,
      StudyTime: archived.studyTime,
      StudyDescription: archived.studyDescription,
      AccessionNumber: archived.accessionNumber,
      StudyID: archived.studyIdentifier,
      ReferringPhysicianName: archived.referringPhysicianName,
    })}>`,
  ];
  let openSeries: number | null = null;
  for (const row of rows) {
    if (row.seriesId !== openSeries) {
      if (openSeries !== null) lines.push('</Series>');
      openSeries = row.seriesId;
      lines.push(
        `<Series${attributes({
          SeriesInstanceUID: row.seriesInstanceUid,
          Modality: row.modality,
          SeriesNumber: row.seriesNumber,
          SeriesDescription: row.seriesDescription,
        })}>`,
      );
    }
    lines.push(
      `<Instance${attributes({
        SOPInstanceUID: row.sopInstanceUid,
        SOPClassUID: row.sopClassUid,
        InstanceNumber: row.instanceNumber,
      })}/>`,
    );
  }
  if (openSeries !== null) lines.push('</Series>');
  lines.push('</Study>', '</Patient>', '</arcQuery>', '</manifest>', '');
  return lines.join('\n');
}
