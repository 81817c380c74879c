import { resolveTab, tabsForList } from '@radflow/core';
import { describe, expect, it } from 'vitest';
import { readRememberedTab, rememberTab } from './tab-memory';

const store = () => window.localStorage;

describe('the remembered tab (spec-core §2)', () => {
  it('remembers the tab per user and per list', () => {
    rememberTab(store(), 'Doc@Demo.local', 'admin', 'myPending');
    rememberTab(store(), 'doc@demo.local', 'doctor', 'signedOff');
    rememberTab(store(), 'other@demo.local', 'admin', 'urgent');
    expect(readRememberedTab(store(), 'doc@demo.local', 'admin')).toBe('myPending');
    expect(readRememberedTab(store(), 'doc@demo.local', 'doctor')).toBe('signedOff');
    expect(readRememberedTab(store(), 'other@demo.local', 'admin')).toBe('urgent');
    expect(readRememberedTab(store(), 'nobody@demo.local', 'admin')).toBeNull();
  });

  it('opens the remembered tab when the list has it, else the first (core resolveTab)', () => {
    rememberTab(store(), 'c@demo.local', 'center', 'readyReports');
    const center = tabsForList('center');
    expect(resolveTab(center, readRememberedTab(store(), 'c@demo.local', 'center')).label).toBe(
      'Ready Reports',
    );
    rememberTab(store(), 'c@demo.local', 'teleCenter', 'all');
    const tele = tabsForList('teleCenter');
    expect(resolveTab(tele, readRememberedTab(store(), 'c@demo.local', 'teleCenter')).label).toBe('Pending');
  });
});
