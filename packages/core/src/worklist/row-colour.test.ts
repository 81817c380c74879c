import { describe, expect, it } from 'vitest';
import type { TRole } from '../identity/roles.js';
import { DEFAULT_ROW_COLOURS, type TRowColourContext, rowColour } from './row-colour.js';
import type { TReportStatus } from './statuses.js';
import { createTestRow } from './test-builders.js';

const now = new Date('2026-06-01T10:00:00Z');
const longAgo = '2026-05-30T10:00:00Z';
const userColours = {
  createdColor: '#c0c0c0',
  urgentColor: '#ff00ff',
  assignedToOtherColor: '#0000ff',
  lockedColor: '#ffff00',
  signedOffColor: '#00ffff',
};
const noColours = {
  createdColor: '',
  urgentColor: '',
  assignedToOtherColor: '',
  lockedColor: '',
  signedOffColor: '',
};

const ctx = (over: Partial<TRowColourContext> = {}): TRowColourContext => ({
  roles: ['ROLE_DOCTOR'] as TRole[],
  flags: { signOffTimeLimit: 60, showRedAfterTAT: true },
  userEmail: 'me@demo.local',
  colours: userColours,
  now,
  ...over,
});
const assignor = { roles: ['ROLE_ASSIGNOR'] as TRole[] };

describe('rowColour (spec-core §2 row colours, spec-lab §3 study table preferences)', () => {
  it.each<
    [string, Parameters<typeof createTestRow>[0], Partial<TRowColourContext>, string | null, string | null]
  >([
    // single facts
    ['urgent, user colour', { urgent: true }, {}, 'urgent', userColours.urgentColor],
    [
      'urgent, default colour',
      { urgent: true },
      { colours: noColours },
      'urgent',
      DEFAULT_ROW_COLOURS.urgent,
    ],
    [
      'time exceeded (assignor)',
      { status: 'LOCKED', firstUploadCompletedAt: longAgo },
      { ...assignor, colours: noColours },
      'timeExceeded',
      DEFAULT_ROW_COLOURS.timeExceeded,
    ],
    [
      'not time exceeded for a doctor',
      { status: 'LOCKED', firstUploadCompletedAt: longAgo },
      { colours: noColours },
      null,
      null,
    ],
    [
      'DO_NOT_DEACTIVATE',
      { status: 'REPORTED', dunningLabels: ['X', 'DO_NOT_DEACTIVATE'] },
      {},
      'doNotDeactivate',
      DEFAULT_ROW_COLOURS.doNotDeactivate,
    ],
    ['other dunning labels', { status: 'REPORTED', dunningLabels: ['SUSPEND'] }, {}, null, null],
    ['signed off', { status: 'SIGNED_OFF' }, {}, 'signedOff', userColours.signedOffColor],
    ['locked', { status: 'LOCKED' }, {}, 'locked', userColours.lockedColor],
    [
      'assigned to someone else',
      { status: 'HISTORY_CREATED', assignedTo: 'dr@demo.local' },
      {},
      'assignedToOther',
      userColours.assignedToOtherColor,
    ],
    ['assigned to me (any case)', { status: 'HISTORY_CREATED', assignedTo: 'ME@Demo.local' }, {}, null, null],
    ['created', { status: 'CREATED' }, {}, 'created', userColours.createdColor],
    ['created without a chosen colour', { status: 'CREATED' }, { colours: noColours }, null, null],
    ['plain HISTORY_CREATED', { status: 'HISTORY_CREATED' }, {}, null, null],
    ['DELETED', { status: 'DELETED' }, {}, null, null],
    // precedence
    [
      'urgent over time exceeded',
      { urgent: true, status: 'LOCKED', firstUploadCompletedAt: longAgo },
      assignor,
      'urgent',
      userColours.urgentColor,
    ],
    [
      'time exceeded over green',
      { status: 'LOCKED', firstUploadCompletedAt: longAgo, dunningLabels: ['DO_NOT_DEACTIVATE'] },
      assignor,
      'timeExceeded',
      DEFAULT_ROW_COLOURS.timeExceeded,
    ],
    [
      'green over status colours',
      { status: 'SIGNED_OFF', dunningLabels: ['DO_NOT_DEACTIVATE'] },
      {},
      'doNotDeactivate',
      DEFAULT_ROW_COLOURS.doNotDeactivate,
    ],
    [
      'locked over assigned to someone else',
      { status: 'LOCKED', assignedTo: 'dr@demo.local' },
      {},
      'locked',
      userColours.lockedColor,
    ],
    [
      'assigned to someone else when locked has no colour',
      { status: 'LOCKED', assignedTo: 'dr@demo.local' },
      { colours: { ...userColours, lockedColor: '' } },
      'assignedToOther',
      userColours.assignedToOtherColor,
    ],
    [
      'assigned to someone else over created',
      { status: 'CREATED', assignedTo: 'dr@demo.local' },
      {},
      'assignedToOther',
      userColours.assignedToOtherColor,
    ],
    [
      'created when assigned-to-other has no colour',
      { status: 'CREATED', assignedTo: 'dr@demo.local' },
      { colours: { ...userColours, assignedToOtherColor: '' } },
      'created',
      userColours.createdColor,
    ],
  ])('%s', (_name, rowOver, ctxOver, key, colour) => {
    const result = rowColour(createTestRow({ createdAt: longAgo, ...rowOver }), ctx(ctxOver));
    expect(result?.key ?? null).toBe(key);
    expect(result?.colour ?? null).toBe(colour);
  });

  it.each<TReportStatus>(['SIGNED_OFF', 'DELETED'])('a %s row is never time-exceeded', (status) => {
    const result = rowColour(
      createTestRow({ status, firstUploadCompletedAt: longAgo }),
      ctx({ ...assignor, colours: noColours }),
    );
    expect(result).toBeNull();
  });
});
