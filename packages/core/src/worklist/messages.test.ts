import { describe, expect, it } from 'vitest';
import { CONFIRMATIONS, CONFIRMED_ACTIONS, WORKLIST_MESSAGES, needsConfirmation } from './messages.js';

describe('worklist texts (spec-core §2, §4, §5, §8, word for word)', () => {
  it.each([
    [WORKLIST_MESSAGES.reworked, 'Report has been Reworked (all report for this study have been deleted)'],
    [WORKLIST_MESSAGES.reSignedOff, 'Report has been Signed Off again, please ask center to re-print it.'],
    [WORKLIST_MESSAGES.studyDeleted, 'Study has been deleted'],
    [WORKLIST_MESSAGES.sendForReporting, 'Send for reporting'],
    [WORKLIST_MESSAGES.pleaseSelectStudyType, 'Please select study type'],
    [WORKLIST_MESSAGES.pleaseSelectReferringDoctor, 'Please select a referring doctor'],
    [WORKLIST_MESSAGES.studyNotUploaded, 'Study not uploaded, please contact center'],
    [WORKLIST_MESSAGES.studyNotFullyUploaded, 'Study is not fully uploaded. please check with center'],
    [WORKLIST_MESSAGES.filesUploaded(2, 5), 'file uploaded 2 out of 5'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('has the empty state of the generic table', () => {
    expect(WORKLIST_MESSAGES.emptyState).toEqual([
      'No result found',
      'We could not find what you searched for.',
      'You can try clearing all the filter.',
    ]);
  });
});

describe('confirmations (spec-core §4 "asks for confirmation first", §5 tag confirms)', () => {
  it.each([
    'markUrgent',
    'markDeleted',
    'split',
    'unlock',
    'rework',
    'assignAuditor',
    'assignReferringDoctor',
    'linkFilm',
    'uploadStudyToCenter',
    'deleteRecording',
    'createTag',
    'deleteTag',
    'makeTagLocal',
    'makeTagGlobal',
  ])('%s asks first', (action) => {
    expect(needsConfirmation(action)).toBe(true);
    expect(CONFIRMED_ACTIONS).toContain(action);
  });

  it.each(['assign', 'print', 'editHistory', ''])('%j does not', (action) => {
    expect(needsConfirmation(action)).toBe(false);
  });

  it('uses the spec texts for tags and marks the rest as ours', () => {
    expect(CONFIRMATIONS.deleteTag).toEqual({
      text: 'Are you sure you want to delete this tag?',
      isSpecText: true,
    });
    expect(CONFIRMATIONS.makeTagLocal).toEqual({
      text: 'Are you sure you want to make this tag local?',
      isSpecText: true,
    });
    expect(CONFIRMATIONS.makeTagGlobal).toEqual({
      text: 'Are you sure you want to make this tag global?',
      isSpecText: true,
    });
    const ours = CONFIRMED_ACTIONS.filter((a) => !['deleteTag', 'makeTagLocal', 'makeTagGlobal'].includes(a));
    for (const a of ours) expect(CONFIRMATIONS[a].isSpecText).toBe(false);
  });

  it('warns that delete and rework cannot be undone', () => {
    expect(CONFIRMATIONS.markDeleted.text).toMatch(/cannot be undone/);
    expect(CONFIRMATIONS.rework.text).toMatch(/All reports of this study will be deleted/);
  });
});
