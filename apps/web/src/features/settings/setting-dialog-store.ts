import type { TSettingEntry } from '@radflow/core';
import { useSyncExternalStore } from 'react';

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

export function openSettingDialog(entry: TSettingEntry): void {
  openEntry = entry;
  emit();
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
