import { and, desc, eq, inArray } from 'drizzle-orm';
import {
  type TSeriesNameMapping,
  type TViewerContext,
  ZSeriesNameSetting,
  groupFlags,
  uploadStateOf,
  viewerEntry,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { preferences, users } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { loadViewerStudy, mayAnnotate } from './viewer-study.js';

/** The preference section the center's series mapping is saved under (spec-lab §7 SERIES_NAME {seriesMappings}). */
export const SERIES_NAME_SECTION = 'SERIES_NAME';

/**
 * The series mapping of a center (spec-lab §3 "series mapping (seriesName, preferredName)", set from
 * the center's settings: POST /setting/update/SERIES_NAME {seriesMappings}). It is a center section
 * (core CENTER_SECTIONS): the center's row is the whole list. A center that has not saved it since
 * center sections exist still has it under its users (scope USER): those rows are merged, the newest
 * first, so a series name mapped twice keeps the newest. A section that does not parse (core
 * ZSeriesNameSetting) is skipped; none stored = [].
 */
export async function loadSeriesNames(db: DbOrTx, centerId: number): Promise<TSeriesNameMapping[]> {
  const [centerRow] = await db
    .select({ value: preferences.value })
    .from(preferences)
    .where(
      and(
        eq(preferences.scope, 'CENTER'),
        eq(preferences.ownerId, centerId),
        eq(preferences.section, SERIES_NAME_SECTION),
      ),
    );
  const centerSetting = centerRow ? ZSeriesNameSetting.safeParse(centerRow.value) : null;
  if (centerSetting?.success) return centerSetting.data.seriesMappings;
  const rows = await db
    .select({ value: preferences.value })
    .from(preferences)
    .where(
      and(
        eq(preferences.scope, 'USER'),
        eq(preferences.section, SERIES_NAME_SECTION),
        inArray(
          preferences.ownerId,
          db.select({ id: users.id }).from(users).where(eq(users.centerId, centerId)),
        ),
      ),
    )
    .orderBy(desc(preferences.updatedAt), desc(preferences.id));
  const byName = new Map<string, TSeriesNameMapping>();
  for (const { value } of rows) {
    const parsed = ZSeriesNameSetting.safeParse(value);
    if (!parsed.success) continue;
    for (const item of parsed.data.seriesMappings) {
      if (!byName.has(item.seriesName)) byName.set(item.seriesName, item);
    }
  }
  return [...byName.values()];
}

/** GET /api/viewer/:id/context. */
export async function getViewerContext(db: DbOrTx, auth: TAuth, id: number): Promise<TViewerContext> {
  const study = await loadViewerStudy(db, auth, id);
  const [prefs, seriesNames] = await Promise.all([
    loadGroupPreferences(db, study.groupId),
    loadSeriesNames(db, study.centerId),
  ]);
  const flags = groupFlags(prefs);
  const upload = uploadStateOf(study);
  const entry = viewerEntry({ status: study.status, upload });
  return {
    id: study.id,
    studyInstanceUid: study.studyInstanceUid,
    apiVersion: study.apiVersion,
    patientName: study.patientName,
    patientId: study.patientId,
    patientSex: study.patientSex,
    patientAge: study.patientAge,
    studyDate: study.studyDate,
    // The row's study name, else what DICOM called the study (as the lists show it).
    studyDescription: study.studyName || study.studyDescription,
    modalities: study.modalities,
    status: study.status,
    deleted: study.status === 'DELETED',
    upload,
    entry,
    seriesNames,
    // The writes check both (loadAnnotatableStudy), so the viewer offers no tool the server refuses.
    canAnnotate: entry.allowed && mayAnnotate(auth, study, flags),
    openInWeasis: flags.openInWeasis,
  };
}
