import { VOICE_MESSAGES, type TRole, type TSupportContact } from '@radflow/core';
import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, type ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { NO_SUPPORT_CONTACT_TEXT } from '../../components/SupportContact';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import { MicButton } from './MicButton';
import type { TSpeechRecognitionEvent } from './speech-recognition';
import { stubEditorLayout } from '../../test/editor-layout';

const SLOW = { timeout: 20_000 };
// The first answers arrive after the session loads; on a busy machine that takes more than 1 s.
configure({ asyncUtilTimeout: 10_000 });

/** The Web Speech API as jsdom lacks it: the test plays the results a browser would report. */
class FakeRecognition {
  static last: FakeRecognition | null = null;
  continuous = false;
  interimResults = false;
  lang = '';
  started = 0;
  onresult: ((event: TSpeechRecognitionEvent) => void) | null = null;
  onerror: ((event: { error: string }) => void) | null = null;
  onend: (() => void) | null = null;
  constructor() {
    FakeRecognition.last = this;
  }
  start() {
    this.started += 1;
  }
  stop() {
    this.onend?.();
  }
  abort() {}
  /** One result, final or interim, as the browser's event carries it. */
  hear(transcript: string, isFinal: boolean) {
    const result = Object.assign([{ transcript }], { isFinal });
    this.onresult?.({ resultIndex: 0, results: [result] } as unknown as TSpeechRecognitionEvent);
  }
}

beforeAll(stubEditorLayout);

afterEach(() => {
  vi.unstubAllGlobals();
  FakeRecognition.last = null;
});

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

let editorRef: Editor | null = null;
function EditorWithMic() {
  const editor = useEditor({ extensions: [StarterKit], content: '<p>Findings:</p>' });
  useEffect(() => {
    editorRef = editor;
  }, [editor]);
  return (
    <>
      <MicButton editor={editor} />
      <EditorContent editor={editor} />
    </>
  );
}

function renderMic(opts: {
  roles?: TRole[];
  voiceTyping: boolean;
  speechToText: boolean;
  support?: TSupportContact;
}) {
  const prefs = buildPreferences((p) => {
    p.UI_PREFERENCES.enableVoiceTyping = opts.voiceTyping;
    p.GROUP_SWITCHES.enableSpeechToText = opts.speechToText;
  });
  const support = opts.support ?? { phone: null, email: null };
  fakeApi(sessionHandlers(buildUser(opts.roles ?? ['ROLE_DOCTOR'], { support }), prefs));
  renderScreen(
    <SignedIn>
      <span>signed in</span>
      <EditorWithMic />
    </SignedIn>,
  );
}

describe('MicButton', () => {
  it(
    'is hidden without the voice typing preference, and for roles that do not write reports',
    SLOW,
    async () => {
      renderMic({ voiceTyping: false, speechToText: true });
      await screen.findByText('signed in');
      expect(screen.queryByRole('button', { name: 'Start dictation' })).toBeNull();
    },
  );

  it('is hidden for a center user even with voice typing on', SLOW, async () => {
    renderMic({ roles: ['ROLE_CENTER'], voiceTyping: true, speechToText: true });
    await screen.findByText('signed in');
    expect(screen.queryByRole('button', { name: 'Start dictation' })).toBeNull();
  });

  it(
    "says the voice free trial is over without the speech-to-text switch, with the deployment's support phone",
    SLOW,
    async () => {
      vi.stubGlobal('webkitSpeechRecognition', FakeRecognition);
      renderMic({
        roles: ['ROLE_TYPIST'],
        voiceTyping: true,
        speechToText: false,
        support: { phone: '+91 80 4000 1234', email: 'help@radflow.example' },
      });
      fireEvent.click(await screen.findByRole('button', { name: 'Start dictation' }));
      const dialog = await screen.findByRole('dialog', { name: VOICE_MESSAGES.trialOver });
      expect(within(dialog).getByRole('link', { name: '+91 80 4000 1234' }).getAttribute('href')).toBe(
        'tel:+918040001234',
      );
      expect(within(dialog).getByRole('link', { name: 'help@radflow.example' }).getAttribute('href')).toBe(
        'mailto:help@radflow.example',
      );
      expect(within(dialog).getByRole('link', { name: 'See pricing' })).toBeTruthy();
      expect(FakeRecognition.last).toBeNull();
    },
  );

  it(
    'sends the user to their group administrator when the deployment names no support contact',
    SLOW,
    async () => {
      vi.stubGlobal('webkitSpeechRecognition', FakeRecognition);
      renderMic({ roles: ['ROLE_DOCTOR'], voiceTyping: true, speechToText: false });
      fireEvent.click(await screen.findByRole('button', { name: 'Start dictation' }));
      const dialog = await screen.findByRole('dialog', { name: VOICE_MESSAGES.trialOver });
      expect(within(dialog).getByText(NO_SUPPORT_CONTACT_TEXT)).toBeTruthy();
      expect(within(dialog).queryByRole('link', { name: /^tel:|\+\d/ })).toBeNull();
      expect(dialog.textContent).not.toMatch(/Support phone/);
    },
  );

  it(
    'dictates: interim words shown, final text inserted at the cursor with spoken commands',
    SLOW,
    async () => {
      vi.stubGlobal('webkitSpeechRecognition', FakeRecognition);
      renderMic({ voiceTyping: true, speechToText: true });
      fireEvent.click(await screen.findByRole('button', { name: 'Start dictation' }));
      const recognition = FakeRecognition.last;
      expect(recognition).not.toBeNull();
      expect(recognition?.continuous).toBe(true);
      expect(recognition?.interimResults).toBe(true);
      expect(screen.getByRole('button', { name: 'Stop dictation' })).toBeTruthy();

      act(() => {
        editorRef?.commands.focus('end');
      });
      act(() => recognition?.hear('liver is', false));
      expect(screen.getByLabelText('Heard so far').textContent).toBe('liver is');
      act(() => recognition?.hear('liver is normal full stop', true));
      expect(editorRef?.getHTML()).toBe('<p>Findings: liver is normal.</p>');
      act(() => recognition?.hear('new line spleen normal new paragraph impression', true));
      expect(editorRef?.getHTML()).toBe(
        '<p>Findings: liver is normal.<br>Spleen normal</p><p>Impression</p>',
      );

      // The browser ends a session after a silence: it is started again while dictation is on.
      act(() => recognition?.onend?.());
      expect(recognition?.started).toBe(2);

      fireEvent.click(screen.getByRole('button', { name: 'Stop dictation' }));
      await waitFor(() => expect(screen.getByRole('button', { name: 'Start dictation' })).toBeTruthy());
    },
  );

  it('tells a browser without speech recognition so', SLOW, async () => {
    renderMic({ voiceTyping: true, speechToText: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Start dictation' }));
    expect(await screen.findByText(VOICE_MESSAGES.notSupported)).toBeTruthy();
  });
});
