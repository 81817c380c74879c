import { VOICE_MESSAGES } from '@radflow/core';
import type { Editor } from '@tiptap/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  getSpeechRecognition,
  insertDictation,
  readResults,
  type TSpeechRecognition,
} from './speech-recognition';

export type TDictationState =
  { kind: 'idle' } | { kind: 'listening'; interim: string } | { kind: 'failed'; message: string };

/**
 * Dictation into a TipTap editor with the browser's speech recognition: continuous, interim results
 * shown while heard, each final result inserted at the cursor. The browser ends a session after a
 * silence; while the user has not pressed stop it is started again.
 */
export function useDictation(editor: Editor | null) {
  const [state, setState] = useState<TDictationState>({ kind: 'idle' });
  const recognitionRef = useRef<TSpeechRecognition | null>(null);
  const wantedRef = useRef(false);
  const editorRef = useRef(editor);
  useEffect(() => {
    editorRef.current = editor;
  }, [editor]);

  const stop = useCallback(() => {
    wantedRef.current = false;
    recognitionRef.current?.stop();
    recognitionRef.current = null;
    setState({ kind: 'idle' });
  }, []);

  useEffect(
    () => () => {
      wantedRef.current = false;
      recognitionRef.current?.abort();
    },
    [],
  );

  const start = useCallback((): boolean => {
    const Recognition = getSpeechRecognition();
    if (!Recognition) return false;
    const recognition = new Recognition();
    recognition.continuous = true;
    recognition.interimResults = true;
    recognition.lang = navigator.language || 'en-IN';
    recognition.onresult = (event) => {
      const { final, interim } = readResults(event);
      const current = editorRef.current;
      if (final && current && !current.isDestroyed) insertDictation(current, final);
      setState({ kind: 'listening', interim });
    };
    recognition.onerror = (event) => {
      // 'no-speech' and 'aborted' end a quiet session; onend restarts it.
      if (event.error === 'not-allowed' || event.error === 'service-not-allowed') {
        wantedRef.current = false;
        setState({ kind: 'failed', message: VOICE_MESSAGES.micBlocked });
      }
    };
    recognition.onend = () => {
      if (wantedRef.current && recognitionRef.current === recognition) {
        try {
          recognition.start();
          return;
        } catch {
          // Fall through: the session cannot be resumed.
        }
      }
      if (recognitionRef.current === recognition) recognitionRef.current = null;
      setState((s) => (s.kind === 'failed' ? s : { kind: 'idle' }));
    };
    wantedRef.current = true;
    recognitionRef.current = recognition;
    recognition.start();
    setState({ kind: 'listening', interim: '' });
    return true;
  }, []);

  return { state, start, stop };
}
