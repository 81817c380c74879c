import type { TStudyListKind } from '@radflow/core';
import { readJsonMap, writeJsonMap } from './browser-storage';

/**
 * The selected tab of each study list, per user (spec-core §2 "The selected tab is remembered"):
 * localStorage `radflow.selectedTabs` = { [userEmail]: { [listKind]: tabKey } }, so two people who
 * share a browser keep their own tabs. Which remembered key is still valid is core resolveTab's call.
 */
export const SELECTED_TAB_STORAGE_KEY = 'radflow.selectedTabs';

export function readRememberedTab(
  storage: Storage | undefined,
  userEmail: string,
  kind: TStudyListKind,
): string | null {
  const byUser = readJsonMap(storage, SELECTED_TAB_STORAGE_KEY)[userEmail.toLowerCase()];
  if (!byUser || typeof byUser !== 'object') return null;
  const key = (byUser as Record<string, unknown>)[kind];
  return typeof key === 'string' ? key : null;
}

export function rememberTab(
  storage: Storage | undefined,
  userEmail: string,
  kind: TStudyListKind,
  tabKey: string,
): void {
  const all = readJsonMap(storage, SELECTED_TAB_STORAGE_KEY);
  const user = userEmail.toLowerCase();
  const byUser = all[user] && typeof all[user] === 'object' ? (all[user] as Record<string, unknown>) : {};
  writeJsonMap(storage, SELECTED_TAB_STORAGE_KEY, { ...all, [user]: { ...byUser, [kind]: tabKey } });
}
