import type { z } from 'zod';
import type { ZUiReportTablePreferences } from '../settings/preferences.js';
import { isTimeExceeded } from './time-exceeded.js';
import type { TRuleInput } from './study-row.js';

/**
 * Row colours of the study table (spec-core §2 Generic study table behaviour; spec-lab §3 study
 * table preferences: row colours for created, urgent, assigned to someone else, locked, signed off).
 */

export const ROW_COLOUR_KEYS = [
  'urgent',
  'timeExceeded',
  'doNotDeactivate',
  'signedOff',
  'locked',
  'assignedToOther',
  'created',
] as const;
export type TRowColourKey = (typeof ROW_COLOUR_KEYS)[number];

/** spec-core §2: the dunning label that paints a row green. */
export const DO_NOT_DEACTIVATE_LABEL = 'DO_NOT_DEACTIVATE';

/**
 * The colour a key has when the user chose none. Only the first three have one: the spec makes
 * urgent, time-exceeded (showRedAfterTAT: red) and green rows always visible, while the status
 * colours exist only when the user picks them.
 */
export const DEFAULT_ROW_COLOURS: Readonly<Record<'urgent' | 'timeExceeded' | 'doNotDeactivate', string>> = {
  urgent: '#ff9800',
  timeExceeded: '#d32f2f',
  doNotDeactivate: '#2e7d32',
};

export type TRowColourPreferences = Pick<
  z.infer<typeof ZUiReportTablePreferences>,
  'createdColor' | 'urgentColor' | 'assignedToOtherColor' | 'lockedColor' | 'signedOffColor'
>;

export interface TRowColourContext extends Omit<
  TRuleInput<never, 'signOffTimeLimit' | 'showRedAfterTAT'>,
  'row'
> {
  /** The signed-in user's e-mail, to tell "assigned to someone else". */
  userEmail: string;
  /** UI_REPORT_TABLE_PREFERENCES of the user; an empty string is "no colour chosen". */
  colours: TRowColourPreferences;
  now: Date;
}

export interface TRowColour {
  key: TRowColourKey;
  /** The colour to paint: the user's choice, else DEFAULT_ROW_COLOURS for the key. */
  colour: string;
}

type TColourRow = TRuleInput<
  'status' | 'urgent' | 'assignedTo' | 'dunningLabels' | 'createdAt' | 'firstUploadCompletedAt'
>['row'];

/**
 * The colour of a row, or null for none. Precedence (decision: the spec lists the colours but no
 * order), first that applies wins:
 * 1. urgent (the user's urgentColor, else the default) — clinical priority first;
 * 2. time-exceeded (spec-core §4, only ever for assignors and verifiers);
 * 3. green when the dunning label DO_NOT_DEACTIVATE is present;
 * 4. the user's status colours, each only if the user chose one: signed off, locked, assigned to
 *    someone else (assignedTo set and not the user, e-mails compared case-insensitively), created.
 *    A status colour not chosen falls through to the next rule.
 */
export function rowColour(row: TColourRow, ctx: TRowColourContext): TRowColour | null {
  const { colours } = ctx;
  if (row.urgent) return { key: 'urgent', colour: colours.urgentColor || DEFAULT_ROW_COLOURS.urgent };
  if (isTimeExceeded({ roles: ctx.roles, flags: ctx.flags, row, now: ctx.now })) {
    return { key: 'timeExceeded', colour: DEFAULT_ROW_COLOURS.timeExceeded };
  }
  if (row.dunningLabels?.includes(DO_NOT_DEACTIVATE_LABEL)) {
    return { key: 'doNotDeactivate', colour: DEFAULT_ROW_COLOURS.doNotDeactivate };
  }
  const assignedToOther = !!row.assignedTo && row.assignedTo.toLowerCase() !== ctx.userEmail.toLowerCase();
  const candidates: [boolean, TRowColourKey, string][] = [
    [row.status === 'SIGNED_OFF', 'signedOff', colours.signedOffColor],
    [row.status === 'LOCKED', 'locked', colours.lockedColor],
    [assignedToOther, 'assignedToOther', colours.assignedToOtherColor],
    [row.status === 'CREATED', 'created', colours.createdColor],
  ];
  for (const [applies, key, colour] of candidates) if (applies && colour) return { key, colour };
  return null;
}
