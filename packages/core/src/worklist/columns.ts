import type { z } from 'zod';
import type { TTableKey } from '../common/constants.js';
import type { ZColumnSetting } from '../settings/preferences.js';
import { type TRole, hasRole, isCenterUser } from '../identity/roles.js';
import { seesActiveInViewer } from '../viewer/entry.js';
import type { TRuleInput } from './study-row.js';

/**
 * The study table columns (spec-core §2 "Study table columns", "Generic study table behaviour":
 * column choice per table key as ordered colName, visible, index; spec-lab §3 column settings).
 */

/**
 * Every column spec-core §2 names, as [id, label]. The id is the colName saved in the user's
 * USER_TABLE_PREFERENCES.tableColumnSettings, so ids never change once shipped.
 * - `status` is the simple status column (simpleStatus), `reportStatus` the full one (displayStatus);
 * - `parentId` shows splitFromReportStatusId; `payment` shows payment status and mode;
 * - `invoiceNumber` is the RIS invoice number and the summary's accession/invoice number;
 * - `auditApproval` is the audit approve/reject switch.
 */
export const STUDY_COLUMN_CATALOGUE = [
  ['referral', 'Referral'],
  ['department', 'Department'],
  ['tag', 'Tag'],
  ['id', 'Id'],
  ['history', 'History'],
  ['reportStatus', 'Report Status'],
  ['studyType', 'Study Type'],
  ['imageCount', 'Series/Images'],
  ['age', 'Age'],
  ['patientId', 'Patient Id'],
  ['originReferenceId', 'Origin Reference Id'],
  ['studyName', 'Study Name'],
  ['radiologyCenter', 'Radiology Center'],
  ['patient', 'Patient'],
  ['email', 'Email'],
  ['identifier', 'Identifier'],
  ['contactNo', 'Contact No.'],
  ['created', 'Created'],
  ['studyDate', 'Study Date'],
  ['status', 'Status'],
  ['payment', 'Payment Status'],
  ['proxyUrl', 'Proxy URL'],
  ['specialUploadUrl', 'Special Upload URL'],
  ['imageUploadStatus', 'Image Upload Status'],
  ['assigned', 'Assigned'],
  ['signedOffDate', 'Signed Off Date'],
  ['uploadedDate', 'Uploaded Date'],
  ['center', 'Center'],
  ['report', 'Report'],
  ['share', 'Share'],
  ['actions', 'Actions'],
  ['parentId', 'Parent Id'],
  ['risCreatedDate', 'Created Date'],
  ['risBillCategories', 'Bill Categories'],
  ['risPriorities', 'Priorities'],
  ['risReferringDoctor', 'Referring Doctor'],
  ['risUhid', 'UHID'],
  ['risMobile', 'Mobile'],
  ['invoiceNumber', 'Invoice Number'],
  ['risBillingStatus', 'Billing Status'],
  ['auditor', 'Auditor'],
  ['auditApproval', 'Audit Approval'],
  ['uploadStudy', 'Upload Study'],
  // Ours: spec-core §6 "assignors with showActiveInViewer see the top 3 recently active viewer users".
  ['activeInViewer', 'Active in Viewer'],
] as const;
export type TStudyColumnId = (typeof STUDY_COLUMN_CATALOGUE)[number][0];

export const STUDY_COLUMN_IDS: readonly TStudyColumnId[] = STUDY_COLUMN_CATALOGUE.map(([id]) => id);

const LABELS = new Map<string, string>(STUDY_COLUMN_CATALOGUE);

export function isStudyColumnId(value: string): value is TStudyColumnId {
  return LABELS.has(value);
}

/** The label of a column (spec-core §2 wording). */
export function columnLabel(id: TStudyColumnId): string {
  return LABELS.get(id) ?? id;
}

type TDefault = readonly [TStudyColumnId, boolean];
const shown = (...ids: TStudyColumnId[]): TDefault[] => ids.map((id) => [id, true] as const);
const offered = (...ids: TStudyColumnId[]): TDefault[] => ids.map((id) => [id, false] as const);

const RIS_COLUMNS = offered(
  'risCreatedDate',
  'risBillCategories',
  'risPriorities',
  'risReferringDoctor',
  'risUhid',
  'risMobile',
  'invoiceNumber',
  'risBillingStatus',
);

/**
 * The columns each table offers, in their default order, with their default visibility. The spec
 * lists the columns but not which table shows which (decision), except the summary, whose columns
 * are spec-core §2 Summary screen's in its order ("optional" ones offered hidden). A column not in a
 * table's list cannot be chosen for that table.
 *
 * Issue 21 §6: the shown ones of each study list fit a 1280 px wide screen beside the menu drawer
 * (about 1,000 px of table): who, what, where it stands, when it came, whose it is and the row's
 * actions. Everything else is one tick away in Column settings. A user's saved choice wins over these
 * (resolveColumns), so changing a default never changes a table someone arranged.
 */
export const DEFAULT_COLUMNS: Readonly<Record<TTableKey, readonly TDefault[]>> = {
  studyList: [
    // The doctor-style list (doctors, typists, auditors, referring doctors): "Assigned" shows the
    // doctor what is theirs (issue 21 §5), core defaultVisibleFor gives an auditor the audit switch.
    ...shown('id', 'patient', 'age', 'studyName', 'reportStatus', 'assigned', 'uploadedDate', 'actions'),
    ...offered('patientId', 'imageCount', 'history', 'tag', 'center', 'studyDate', 'signedOffDate'),
    ...offered('report', 'auditor', 'auditApproval'),
    ...offered('referral', 'department', 'studyType', 'created', 'status', 'parentId'),
    ...offered('originReferenceId', 'radiologyCenter'),
  ],
  adminStudyList: [
    ...shown('id', 'patient', 'studyName', 'center', 'assigned', 'reportStatus', 'uploadedDate'),
    ...shown('actions', 'activeInViewer'),
    ...offered('age', 'patientId', 'imageCount', 'history', 'tag', 'studyDate', 'signedOffDate', 'report'),
    ...offered('share', 'referral', 'department', 'studyType', 'created', 'status', 'parentId'),
    ...offered('originReferenceId', 'radiologyCenter', 'email', 'identifier', 'contactNo', 'payment'),
    ...offered('proxyUrl', 'specialUploadUrl', 'imageUploadStatus', 'auditor', 'auditApproval'),
  ],
  centerReportList: [
    ...shown('id', 'patient', 'age', 'studyName', 'reportStatus', 'uploadedDate', 'uploadStudy', 'actions'),
    ...offered('patientId', 'imageCount', 'history', 'tag', 'referral', 'status', 'studyDate'),
    ...offered('assigned', 'signedOffDate', 'report', 'share'),
    ...offered('studyType', 'department', 'created', 'contactNo', 'email', 'originReferenceId', 'parentId'),
    ...offered('payment', 'imageUploadStatus'),
    ...RIS_COLUMNS,
  ],
  doctorSummary: [
    ...shown('id', 'patient'),
    ...offered('patientId', 'invoiceNumber'),
    ...shown('studyName', 'history', 'reportStatus', 'center', 'assigned', 'referral', 'share'),
    ...shown('studyDate', 'uploadedDate', 'signedOffDate', 'report'),
  ],
};

/**
 * The columns drawn pinned to the right edge of the table (issue 21 §6): the row's actions stay on
 * screen however many columns a user turns on, and are drawn last whatever their saved place.
 */
export const PINNED_COLUMNS: readonly TStudyColumnId[] = ['actions'];

export function isPinnedColumn(id: TStudyColumnId): boolean {
  return PINNED_COLUMNS.includes(id);
}

/**
 * A column's default visibility for a user, where it depends on the role: the auditor's own list
 * (the doctor-style `studyList`) shows the approve/reject switch (spec-core §2 audit columns) in the
 * place of "Assigned", which says nothing to an auditor.
 */
export function defaultVisibleFor(
  tableKey: TTableKey,
  roles: readonly TRole[],
  id: TStudyColumnId,
  visible: boolean,
): boolean {
  if (tableKey === 'studyList' && hasRole(roles, 'ROLE_AUDITOR') && !hasRole(roles, 'ROLE_DOCTOR')) {
    if (id === 'auditApproval') return true;
    if (id === 'assigned') return false;
  }
  return visible;
}

export type TSavedColumn = z.infer<typeof ZColumnSetting>;

export interface TResolvedColumn {
  colName: TStudyColumnId;
  label: string;
  visible: boolean;
  index: number;
}

type THideFlags =
  | 'hideStudyDateColumn'
  | 'hideUploadedAtColumn'
  | 'hideSummaryPage'
  | 'hideAssignedToForCenter'
  | 'hideCenterColumnForVerifier'
  | 'showAssignedToInSummaryPage'
  | 'showActiveInViewer';

export type TColumnContext = Omit<TRuleInput<never, THideFlags>, 'row'>;

/**
 * The columns group settings take away (spec-core §2 Study table columns, §3 group settings;
 * spec-lab §6): study date by hideStudyDateColumn, uploaded date by hideUploadedAtColumn; assigned
 * by hideSummaryPage or, for center users, hideAssignedToForCenter, and on the summary unless
 * showAssignedToInSummaryPage ("optional assigned-to"); the center columns (center and radiology
 * center) for verifiers by hideCenterColumnForVerifier; who was last active in the viewer for
 * everyone but assignors of a group with showActiveInViewer (core seesActiveInViewer).
 */
export function columnsHiddenBySettings(
  tableKey: TTableKey,
  { roles, flags }: TColumnContext,
): ReadonlySet<TStudyColumnId> {
  const hidden = new Set<TStudyColumnId>();
  if (flags.hideStudyDateColumn) hidden.add('studyDate');
  if (flags.hideUploadedAtColumn) hidden.add('uploadedDate');
  if (
    flags.hideSummaryPage ||
    (flags.hideAssignedToForCenter && isCenterUser(roles)) ||
    (tableKey === 'doctorSummary' && !flags.showAssignedToInSummaryPage)
  ) {
    hidden.add('assigned');
  }
  if (flags.hideCenterColumnForVerifier && hasRole(roles, 'ROLE_VERIFIER')) {
    hidden.add('center');
    hidden.add('radiologyCenter');
  }
  if (!seesActiveInViewer(roles, flags)) hidden.add('activeInViewer');
  return hidden;
}

/**
 * The columns a table shows for a user (spec-core §2 Generic study table behaviour): the user's saved
 * choice in its saved order (by index), then every column of the table the choice does not mention
 * (one added since it was saved), in default order with its default visibility for the user
 * (defaultVisibleFor). Saved entries of
 * columns the table does not offer, and repeats, are dropped; so are the columns group settings hide
 * (columnsHiddenBySettings), which the user cannot turn back on. Indexes are renumbered from 0.
 */
export function resolveColumns(
  tableKey: TTableKey,
  saved: readonly TSavedColumn[] | null | undefined,
  ctx: TColumnContext,
): TResolvedColumn[] {
  const defaults = DEFAULT_COLUMNS[tableKey];
  const offeredIds = new Set<string>(defaults.map(([id]) => id));
  const hidden = columnsHiddenBySettings(tableKey, ctx);
  const seen = new Set<string>();
  const ordered: [TStudyColumnId, boolean][] = [];
  const sortedSaved = [...(saved ?? [])].sort((a, b) => a.index - b.index);
  for (const entry of sortedSaved) {
    if (!offeredIds.has(entry.colName) || seen.has(entry.colName)) continue;
    if (!isStudyColumnId(entry.colName)) continue;
    seen.add(entry.colName);
    ordered.push([entry.colName, entry.visible]);
  }
  for (const [id, visible] of defaults)
    if (!seen.has(id)) ordered.push([id, defaultVisibleFor(tableKey, ctx.roles, id, visible)]);
  return ordered
    .filter(([id]) => !hidden.has(id))
    .map(([colName, visible], index) => ({ colName, label: columnLabel(colName), visible, index }));
}

/**
 * What a user saves back: the resolved columns as ordered colName, visible, index entries. A column a
 * group setting hides is not in it; if the setting is turned off later the column comes back at the
 * end with its default visibility.
 */
export function toSavedColumns(columns: readonly TResolvedColumn[]): TSavedColumn[] {
  return columns.map(({ colName, visible }, index) => ({ colName, visible, index }));
}
