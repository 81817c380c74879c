import { describe, expect, it } from 'vitest';
import { micButtonState, parseDictation } from './voice.js';

describe('micButtonState', () => {
  it('is hidden unless a doctor or typist has voice typing on', () => {
    expect(
      micButtonState({ roles: ['ROLE_DOCTOR'], enableVoiceTyping: false, enableSpeechToText: true }),
    ).toBe('HIDDEN');
    expect(
      micButtonState({ roles: ['ROLE_CENTER'], enableVoiceTyping: true, enableSpeechToText: true }),
    ).toBe('HIDDEN');
    expect(
      micButtonState({ roles: ['ROLE_TYPIST'], enableVoiceTyping: true, enableSpeechToText: true }),
    ).toBe('READY');
  });
  it('says the trial is over without the speech-to-text switch', () => {
    expect(
      micButtonState({ roles: ['ROLE_DOCTOR'], enableVoiceTyping: true, enableSpeechToText: false }),
    ).toBe('TRIAL_OVER');
  });
});

describe('parseDictation', () => {
  it('inserts words with a leading space mid-line, capitalised at a line start', () => {
    expect(parseDictation('liver is normal', false)).toEqual([{ kind: 'text', text: ' liver is normal' }]);
    expect(parseDictation('liver is normal', true)).toEqual([{ kind: 'text', text: 'Liver is normal' }]);
  });
  it('turns spoken commands into punctuation and breaks', () => {
    expect(
      parseDictation('liver is normal full stop spleen comma kidneys new line impression', true),
    ).toEqual([
      { kind: 'text', text: 'Liver is normal' },
      { kind: 'text', text: '.' },
      { kind: 'text', text: ' Spleen' },
      { kind: 'text', text: ',' },
      { kind: 'text', text: ' kidneys' },
      { kind: 'lineBreak' },
      { kind: 'text', text: 'Impression' },
    ]);
    expect(parseDictation('New Paragraph', false)).toEqual([{ kind: 'paragraph' }]);
  });
});
