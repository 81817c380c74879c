import { type TRole, hasRole } from '../identity/roles.js';

/**
 * Voice typing in the report editor (spec-core §6 "Typist or doctor: mic button (hidden by setting;
 * needs the speech-to-text setting, else a 'Voice free trial is over' dialog that shows the support
 * phone {phone} and a pricing page)"; issue 7 §3). The browser's own speech recognition does the
 * work; these are the rules and texts the mic button follows. The phone is the deployment's
 * (server SUPPORT_PHONE, in the current user's `support`).
 */

export const VOICE_MESSAGES = {
  /** spec-core §6, word for word: the dialog's title when speech-to-text is not enabled. */
  trialOver: 'Voice free trial is over',
  trialOverBody:
    'Voice typing (speech-to-text) is not enabled for your group. It is an add-on: see the pricing, then ask for it to be turned on.',
  notSupported:
    'This browser cannot recognise speech. Use a recent Chrome or Edge to dictate, or type the report.',
  micBlocked: 'The microphone is blocked. Allow it in the browser and try again.',
  listening: 'Listening… speak, and say "new line" or "full stop" where you want them.',
} as const;

/** The pricing page the trial-over dialog links to (an info page). */
export const VOICE_PRICING_PATH = '/info-page?page=pricing';

export type TMicButtonState = 'HIDDEN' | 'TRIAL_OVER' | 'READY';

/**
 * What the mic button does for this user: hidden unless the user is a typist or doctor with the UI
 * preference enableVoiceTyping on; when the group's speech-to-text switch (enableSpeechToText) is
 * off it opens the 'Voice free trial is over' dialog; otherwise it dictates.
 */
export function micButtonState(input: {
  roles: readonly TRole[];
  enableVoiceTyping: boolean;
  enableSpeechToText: boolean;
}): TMicButtonState {
  if (!hasRole(input.roles, 'ROLE_DOCTOR', 'ROLE_TYPIST') || !input.enableVoiceTyping) return 'HIDDEN';
  return input.enableSpeechToText ? 'READY' : 'TRIAL_OVER';
}

/** One piece of dictated text: words to insert, or a line / paragraph break. */
export type TDictationPiece = { kind: 'text'; text: string } | { kind: 'lineBreak' } | { kind: 'paragraph' };

/** Spoken commands (whole words, case-insensitive), longest first so "new paragraph" wins over "new". */
const COMMANDS: ReadonlyArray<[RegExp, TDictationPiece | string]> = [
  [/^new paragraph$/i, { kind: 'paragraph' }],
  [/^(new line|next line)$/i, { kind: 'lineBreak' }],
  [/^(full stop|period)$/i, '.'],
  [/^comma$/i, ','],
  [/^question mark$/i, '?'],
  [/^colon$/i, ':'],
  [/^semicolon$/i, ';'],
  [/^hyphen$/i, '-'],
];
const COMMAND_PATTERN =
  /\b(new paragraph|new line|next line|full stop|period|comma|question mark|colon|semicolon|hyphen)\b/gi;

/**
 * Turns one final recognition result into pieces to insert: spoken commands become breaks and
 * punctuation (attached to the word before, the next word capitalised after a full stop). `atLineStart`
 * says whether the cursor sits at the start of a line (no leading space, capitalise).
 */
export function parseDictation(transcript: string, atLineStart: boolean): TDictationPiece[] {
  const pieces: TDictationPiece[] = [];
  let capitalise = atLineStart;
  let needsSpace = !atLineStart;
  const pushText = (raw: string) => {
    const words = raw.trim().replace(/\s+/g, ' ');
    if (!words) return;
    const text = capitalise ? words.charAt(0).toUpperCase() + words.slice(1) : words;
    pieces.push({ kind: 'text', text: needsSpace ? ` ${text}` : text });
    capitalise = false;
    needsSpace = true;
  };
  let last = 0;
  for (const match of transcript.matchAll(COMMAND_PATTERN)) {
    pushText(transcript.slice(last, match.index));
    last = match.index + match[0].length;
    const command = COMMANDS.find(([pattern]) => pattern.test(match[0]))?.[1];
    if (typeof command === 'string') {
      pieces.push({ kind: 'text', text: command });
      needsSpace = true;
      if (command === '.' || command === '?') capitalise = true;
    } else if (command) {
      pieces.push(command);
      capitalise = true;
      needsSpace = false;
    }
  }
  pushText(transcript.slice(last));
  return pieces;
}
