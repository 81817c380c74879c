import { describe, expect, it } from 'vitest';
import { changeLayout, showSeries, stepSeries, type TGridState } from './layout';
import { edgeLabels } from './orientation';
import { formatSlice, formatStudyDate, formatWindow } from './overlay-text';
import { displaySeriesName } from './series-names';
import { paymentRedirectPath, viewerEntryOf } from './viewer-entry';
import { TOOL_KEYS, commandOfKey } from './viewer-keys';
import { VIEWER_SHORTCUTS } from './viewer-shortcuts';

const content = (series: string) => ({ studyInstanceUid: 's', seriesInstanceUid: series });

describe('series names (center SERIES_NAME mapping)', () => {
  const mappings = [{ seriesName: 'AX T2 FSE', preferredName: 'Axial T2' }];
  it('shows the preferred name for a matching description, whatever its case and spaces', () => {
    expect(displaySeriesName(' ax t2 fse ', 4, mappings)).toBe('Axial T2');
  });
  it('keeps other descriptions, and names an undescribed series by its number', () => {
    expect(displaySeriesName('Sag T1', 2, mappings)).toBe('Sag T1');
    expect(displaySeriesName('', 3, mappings)).toBe('Series 3');
  });
});

describe('layouts', () => {
  const one: TGridState = { layout: '1x1', series: [content('a')], active: 0 };
  it('fills new viewports with series not shown yet and keeps the shown ones', () => {
    const grid = changeLayout(one, '2x2', [content('a'), content('b'), content('c')]);
    expect(grid.series.map((s) => s?.seriesInstanceUid ?? null)).toEqual(['a', 'b', 'c', null]);
    expect(changeLayout({ ...grid, active: 3 }, '1x2', []).active).toBe(1);
  });
  it('puts a clicked or dropped series in its viewport and makes it active', () => {
    const grid = showSeries(changeLayout(one, '1x2', [content('a'), content('b')]), 1, content('c'));
    expect(grid).toMatchObject({ active: 1, series: [content('a'), content('c')] });
  });
  it('steps through the series with the arrows and jumps with Home/End, clamped', () => {
    const all = ['a', 'b', 'c'];
    expect(stepSeries(all, 'b', 1)).toBe('c');
    expect(stepSeries(all, 'c', 1)).toBe('c');
    expect(stepSeries(all, 'a', -1)).toBe('a');
    expect(stepSeries(all, 'b', 'first')).toBe('a');
    expect(stepSeries(all, 'a', 'last')).toBe('c');
  });
});

describe('keys (spec-core §2)', () => {
  const key = (k: string, canAnnotate = true) => commandOfKey({ key: k }, canAnnotate);
  it('binds 1-6 to the window presets in order', () => {
    expect(['1', '2', '3', '4', '5', '6'].map((k) => key(k))).toEqual(
      [0, 1, 2, 3, 4, 5].map((index) => ({ kind: 'preset', index })),
    );
  });
  it('binds the tools, the series and the frame keys', () => {
    expect(key('m')).toEqual({ kind: 'tool', tool: 'pan' });
    expect(key('Z')).toEqual({ kind: 'tool', tool: 'zoom' });
    expect(key('l')).toEqual({ kind: 'tool', tool: 'length' });
    expect(key('e')).toEqual({ kind: 'tool', tool: 'ellipse' });
    expect(key('a')).toEqual({ kind: 'tool', tool: 'angle' });
    expect(key('y')).toEqual({ kind: 'tool', tool: 'arrow' });
    expect(key('Home')).toEqual({ kind: 'series', step: 'first' });
    expect(key('End')).toEqual({ kind: 'series', step: 'last' });
    expect(key('ArrowLeft')).toEqual({ kind: 'series', step: -1 });
    expect(key('ArrowRight')).toEqual({ kind: 'series', step: 1 });
    expect(key('ArrowUp')).toEqual({ kind: 'frame', step: -1 });
    expect(key('ArrowDown')).toEqual({ kind: 'frame', step: 1 });
  });
  it('binds every key the shortcut dialog lists', () => {
    const arrows: Record<string, string> = {
      '←': 'ArrowLeft',
      '→': 'ArrowRight',
      '↑': 'ArrowUp',
      '↓': 'ArrowDown',
    };
    for (const k of VIEWER_SHORTCUTS.flatMap((s) => s.keys)) expect(key(arrows[k] ?? k), k).not.toBeNull();
    expect(Object.values(TOOL_KEYS)).toHaveLength(6);
  });
  it('ignores typing, modified keys, and drawing keys for read-only users', () => {
    expect(commandOfKey({ key: 'l', isTyping: true }, true)).toBeNull();
    expect(commandOfKey({ key: '1', ctrlKey: true }, true)).toBeNull();
    expect(key('l', false)).toBeNull();
    expect(key('m', false)).toEqual({ kind: 'tool', tool: 'pan' });
  });
});

describe('orientation markers', () => {
  it('reads an axial slice as R/L across and A/P down', () => {
    expect(edgeLabels([1, 0, 0, 0, 1, 0])).toEqual({ left: 'R', right: 'L', top: 'A', bottom: 'P' });
  });
  it('follows flips and quarter turns, and gives none without an orientation', () => {
    expect(edgeLabels([1, 0, 0, 0, 1, 0], { flipHorizontal: true })).toMatchObject({ left: 'L', right: 'R' });
    expect(edgeLabels([1, 0, 0, 0, 1, 0], { rotation: 90 })).toEqual({
      top: 'R',
      right: 'A',
      bottom: 'L',
      left: 'P',
    });
    expect(edgeLabels([])).toBeNull();
  });
});

describe('overlay text and entry', () => {
  it('formats the study date, the window and the slice', () => {
    expect(formatStudyDate('20240131')).toBe('2024-01-31');
    expect(formatWindow(400, 40)).toBe('W: 400 L: 40');
    expect(formatSlice(0, 3)).toBe('Img: 1/3');
  });
  it('refuses with the server message, opens a partial upload with its warning', () => {
    const base = { upload: 'COMPLETE' as const };
    expect(viewerEntryOf({ ...base, entry: { allowed: false, message: 'Study has been deleted' } })).toEqual({
      kind: 'blocked',
      message: 'Study has been deleted',
    });
    expect(viewerEntryOf({ upload: 'PARTIAL', entry: { allowed: true } })).toEqual({
      kind: 'open',
      warning: 'Study is not fully uploaded. please check with center',
    });
    expect(viewerEntryOf({ ...base, entry: { allowed: true } })).toEqual({ kind: 'open', warning: null });
  });
  it('sends an unpaid viewer session to the share page of its e-mail', () => {
    expect(paymentRedirectPath('viewer@demo.local')).toBe('/share?link=viewer%40demo.local');
  });
});
