import { eq, sql } from 'drizzle-orm';
import {
  AppError,
  MESSAGES,
  PDF_MARGIN_DEFAULTS_CM,
  ZReportTextSetting,
  formatDicomText,
  formatPersonName,
  groupFlags,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import {
  centers,
  preferences,
  reportLayouts,
  reportStatuses,
  reports,
  studies,
  users,
  viewerKeyImages,
} from '../../db/schema.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { rowModalities } from '../../db/row-modalities.js';

/**
 * Everything a report document shows, read from the database (no access checks: callers check).
 * Names are as shown (core formatPersonName: 'Hong^Gildong' reads 'Gildong Hong'), not as stored.
 */
export interface TReportDocumentData {
  reportStatusId: number;
  groupId: number;
  status: string;
  studyInstanceUid: string;
  patient: { name: string; id: string; uhid: string; age: string; sex: string };
  study: { name: string; modalities: string[]; date: string; referringPhysician: string; center: string };
  /** Group switch showPatientIdInReportPage. */
  showPatientId: boolean;
  /** The group's display time zone (ADMIN_PREFERENCES displayTimeZone): the document's times. */
  displayTimeZone: string;
  /** The main report, then the addenda, oldest first. */
  reports: TDocumentReport[];
  layout: TDocumentLayout;
  /** The center's report text (spec-lab §3): header, footer, disclaimer HTML (already cleaned). */
  reportText: { header: string; footer: string; disclaimer: string };
  keyImages: Array<{ seriesInstanceUid: string; sopInstanceUid: string; frameNumber: number }>;
}

export interface TDocumentReport {
  name: string;
  contentHtml: string;
  isAddendum: boolean;
  signedOffAt: Date | null;
  signatureName: string | null;
  signatureAssetId: string | null;
  doctorName: string;
}

export interface TDocumentLayout {
  marginsCm: { top: number; bottom: number; left: number; right: number };
  headerAssetId: string | null;
  footerAssetId: string | null;
}

/** DICOM DA (YYYYMMDD) as the spec's date format yyyy-MM-dd; anything else as it is. */
export function formatStudyDate(da: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(da.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}` : da.trim();
}

/** Group settings a caller has read already (one query fewer). */
export interface TKnownGroupSettings {
  showPatientId?: boolean;
  displayTimeZone?: string;
}

/** A report as the query below answers it (json: times are text). */
interface TReportJson extends Omit<TDocumentReport, 'signedOffAt'> {
  signedOffAt: string | null;
}

/**
 * Everything but the group switch in one statement: the row, its study and center, its reports
 * with their doctors, the page layout, the center's report text and the key images. A report
 * document is asked for often (every print and download); on PGlite each statement costs the
 * server's own CPU, so five round trips became one.
 */
export async function loadReportDocumentData(
  db: DbOrTx,
  reportStatusId: number,
  known: TKnownGroupSettings = {},
): Promise<TReportDocumentData> {
  const rs = reportStatuses;
  const [row] = await db
    .select({
      report: rs,
      studyInstanceUid: studies.studyInstanceUid,
      studyDate: studies.studyDate,
      studyDescription: studies.studyDescription,
      modalities: rowModalities,
      centerName: centers.name,
      reports: sql<TReportJson[]>`(
        select coalesce(json_agg(json_build_object(
          'name', ${reports.name}, 'contentHtml', ${reports.contentHtml}, 'isAddendum', ${reports.isAddendum},
          'signedOffAt', ${reports.signedOffAt}, 'signatureName', ${reports.signatureName},
          'signatureAssetId', ${reports.signatureAssetId}, 'doctorName', ${users.identifier}
        ) order by ${reports.isAddendum}, ${reports.id}), '[]'::json)
        from ${reports} join ${users} on ${users.id} = ${reports.doctorUserId}
        where ${reports.reportStatusId} = ${rs.id})`,
      layout: sql<{
        top: string;
        bottom: string;
        left: string;
        right: string;
        headerAssetId: string | null;
        footerAssetId: string | null;
      } | null>`(
        select json_build_object('top', l.margin_top_cm, 'bottom', l.margin_bottom_cm, 'left', l.margin_left_cm,
          'right', l.margin_right_cm, 'headerAssetId', l.header_asset_id, 'footerAssetId', l.footer_asset_id)
        from ${reportLayouts} l
        where (l.scope = 'CENTER' and l.owner_id = ${rs.centerId}) or (l.scope = 'GROUP' and l.owner_id = ${rs.groupId})
        order by l.scope = 'CENTER' desc limit 1)`,
      reportText: sql<unknown>`(
        select p.value from ${preferences} p join ${users} u on u.id = p.owner_id
        where p.scope = 'USER' and p.section = 'REPORT_TEXT' and u.center_id = ${rs.centerId}
        order by p.updated_at desc, p.id desc limit 1)`,
      keyImages: sql<TReportDocumentData['keyImages']>`(
        select coalesce(json_agg(json_build_object('seriesInstanceUid', k.series_instance_uid,
          'sopInstanceUid', k.sop_instance_uid, 'frameNumber', k.frame_number) order by k.id), '[]'::json)
        from ${viewerKeyImages} k where k.report_status_id = ${rs.id})`,
    })
    .from(rs)
    .innerJoin(studies, eq(studies.id, rs.studyId))
    .innerJoin(centers, eq(centers.id, rs.centerId))
    .where(eq(rs.id, reportStatusId));
  if (!row) throw new AppError('NOT_FOUND', MESSAGES.notFound, 'reportStatusId');
  const r = row.report;
  const flags =
    known.showPatientId === undefined || known.displayTimeZone === undefined
      ? groupFlags(await loadGroupPreferences(db, r.groupId))
      : null;
  const showPatientId = known.showPatientId ?? flags!.showPatientIdInReportPage;
  const displayTimeZone = known.displayTimeZone ?? flags!.displayTimeZone;
  const text = ZReportTextSetting.safeParse(row.reportText ?? {});
  const layout = row.layout;
  return {
    reportStatusId,
    groupId: r.groupId,
    status: r.status,
    studyInstanceUid: row.studyInstanceUid,
    patient: {
      name: formatPersonName(r.patientName),
      id: r.patientId,
      uhid: r.uhid,
      age: r.patientAge,
      sex: r.patientSex,
    },
    study: {
      name: formatDicomText(r.studyName || row.studyDescription),
      modalities: row.modalities,
      date: formatStudyDate(row.studyDate),
      referringPhysician: formatPersonName(r.referringPhysicianName),
      center: row.centerName,
    },
    showPatientId,
    displayTimeZone,
    reports: row.reports.map((report) => ({
      ...report,
      signedOffAt: report.signedOffAt === null ? null : new Date(report.signedOffAt),
    })),
    // The center's layout, else the group's (a group admin's), else the spec's defaults (DECISIONS.md).
    layout: layout
      ? {
          // numeric(5,2) comes back as text.
          marginsCm: {
            top: Number(layout.top),
            bottom: Number(layout.bottom),
            left: Number(layout.left),
            right: Number(layout.right),
          },
          headerAssetId: layout.headerAssetId,
          footerAssetId: layout.footerAssetId,
        }
      : { marginsCm: { ...PDF_MARGIN_DEFAULTS_CM }, headerAssetId: null, footerAssetId: null },
    // REPORT_TEXT is kept per user (core preferenceOwnerOf): the center's is the newest saved by a
    // user of the center (DECISIONS.md); blank when none is saved.
    reportText: text.success ? text.data : { header: '', footer: '', disclaimer: '' },
    keyImages: row.keyImages,
  };
}
