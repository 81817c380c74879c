import {
  ZPreferenceSectionValue,
  ZStudyListPage,
  ZUserTablePreferences,
  type TSavedColumn,
  type TSearchTableRequest,
  type TStudyListPage,
  type TTabFilter,
} from '@radflow/core';
import { apiRequest } from '../../api/client';
import { STUDIES_QUERY_KEY } from '../../api/archive';

/** The list calls of spec-core §7 "Lists and summaries" and the column-choice save. */

export type TListCallPath = '/dicom-web/studies/' | '/report-status/';

export interface TStudyListCall {
  path: TListCallPath;
  search: TSearchTableRequest;
  /** The tab's filter (core tabsForList); {} for a list without tabs. */
  filter: TTabFilter;
  /** The typist's chosen doctor (spec-core §6 typist doctor gate); only POST /dicom-web/studies/ takes it. */
  contextDoctor?: string | null;
}

/** Every list's query key starts with STUDIES_QUERY_KEY, so one invalidation refreshes them all. */
export const studyListKey = (call: TStudyListCall) => [...STUDIES_QUERY_KEY, call] as const;

/**
 * The request body: the search plus the tab's fields. POST /report-status/ takes only statuses and
 * showUrgent (spec-core §7), so the other tab fields are not sent there.
 */
export function listCallBody({
  path,
  search,
  filter,
  contextDoctor,
}: TStudyListCall): Record<string, unknown> {
  const body: Record<string, unknown> = { ...search };
  if (filter.statuses) body.statuses = [...filter.statuses];
  if (filter.showUrgent) body.showUrgent = true;
  if (path === '/dicom-web/studies/') {
    if (filter.showAssigned) body.showAssigned = true;
    if (filter.showUnassigned) body.showUnassigned = true;
    if (filter.showPending) body.showPending = true;
    if (filter.showReprintNeeded) body.showReprintNeeded = true;
    // 'ME' is the caller, or for a typist the doctor they type for: the server resolves it.
    if (filter.assignedTos === 'ME') body.assignedTos = ['ME'];
    if (contextDoctor) body.contextDoctor = contextDoctor;
  }
  return body;
}

export function fetchStudyList(call: TStudyListCall, signal?: AbortSignal): Promise<TStudyListPage> {
  return apiRequest(`/api${call.path}`, { json: listCallBody(call), schema: ZStudyListPage, signal });
}

/** POST /api/setting/update/USER_TABLE_PREFERENCES with the whole column map; answers the section. */
export async function saveTableColumnSettings(tableColumnSettings: Record<string, TSavedColumn[]>) {
  const section = await apiRequest('/api/setting/update/USER_TABLE_PREFERENCES', {
    json: { tableColumnSettings },
    schema: ZPreferenceSectionValue,
  });
  return ZUserTablePreferences.parse(section);
}
