import { DEFAULT_COLUMNS, defaultPreferences, groupFlags, resolveColumns } from '@radflow/core';
import { describe, expect, it } from 'vitest';
import {
  drawnColumns,
  mergeTableColumnSettings,
  moveColumn,
  setColumnVisible,
  visibleColumns,
} from './column-settings';

const ctx = { roles: ['ROLE_DOCTOR' as const], flags: groupFlags(defaultPreferences()) };
const defaults = () => resolveColumns('studyList', null, ctx);

describe('column settings (spec-core §2 column choice per table key)', () => {
  it('moves a column and renumbers every index from 0', () => {
    const moved = moveColumn(defaults(), 2, 0);
    expect(moved.slice(0, 3).map((c) => c.colName)).toEqual(['age', 'id', 'patient']);
    expect(moved.map((c) => c.index)).toEqual(moved.map((_, i) => i));
    expect(moveColumn(defaults(), 0, -5)[0]?.colName).toBe('id');
  });

  it('hides and shows a column', () => {
    const hidden = setColumnVisible(defaults(), 'history', false);
    expect(visibleColumns(hidden).map((c) => c.colName)).not.toContain('history');
    const shown = setColumnVisible(hidden, 'department', true);
    expect(visibleColumns(shown).map((c) => c.colName)).toContain('department');
  });

  it('saves this table’s ordered colName/visible/index and leaves the other tables alone', () => {
    const centerSaved = [{ colName: 'id', visible: true, index: 0 }];
    const edited = setColumnVisible(moveColumn(defaults(), 1, 0), 'tag', false);
    const map = mergeTableColumnSettings({ centerReportList: centerSaved }, 'studyList', edited);
    expect(map.centerReportList).toEqual(centerSaved);
    expect(map.studyList?.slice(0, 2)).toEqual([
      { colName: 'patient', visible: true, index: 0 },
      { colName: 'id', visible: true, index: 1 },
    ]);
    expect(map.studyList).toHaveLength(DEFAULT_COLUMNS.studyList.length);
    // What was saved is what the table shows next time.
    expect(resolveColumns('studyList', map.studyList, ctx)).toEqual(edited);
  });

  it('draws the pinned actions column last, leaving the saved order alone (issue 21 §6)', () => {
    const actionsFirst = moveColumn(
      defaults(),
      defaults().findIndex((c) => c.colName === 'actions'),
      0,
    );
    expect(actionsFirst[0]?.colName).toBe('actions');
    const drawn = drawnColumns(actionsFirst).map((c) => c.colName);
    expect(drawn.at(-1)).toBe('actions');
    expect(drawn.slice(0, -1)).toEqual(
      visibleColumns(actionsFirst)
        .map((c) => c.colName)
        .filter((id) => id !== 'actions'),
    );
  });
});
