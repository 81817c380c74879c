import type { TSettingEntry } from '@radflow/core';
import { useSyncExternalStore } from 'react';
import { openWhenLoaded, preloadWhenIdle } from '../../lib/preloadable';
import { SETTING_DIALOGS } from './entries';

/**
 * Which settings dialog is open. One host (in the top bar) draws it, so the settings page and the
 * gear menu open the same dialog the same way; a module store because the two sit in different
 * branches of the shell (the top bar and the routed page).
 */
let openEntry: TSettingEntry | null = null;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

/** Opens an entry's dialog once its chunk is in (lib/preloadable.ts: no suspense throttle). */
export function openSettingDialog(entry: TSettingEntry): void {
  openWhenLoaded(SETTING_DIALOGS[entry], () => {
    openEntry = entry;
    emit();
  });
}

/** Loads the dialogs of these entries while the browser is idle (a page or menu offering them). */
export function preloadSettingDialogs(entries: readonly TSettingEntry[]): void {
  preloadWhenIdle(entries.map((entry) => SETTING_DIALOGS[entry]));
}

export function closeSettingDialog(): void {
  openEntry = null;
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useOpenSettingEntry(): TSettingEntry | null {
  return useSyncExternalStore(
    subscribe,
    () => openEntry,
    () => null,
  );
}
