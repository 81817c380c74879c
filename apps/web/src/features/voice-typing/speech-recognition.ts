import { parseDictation } from '@radflow/core';
import type { Editor } from '@tiptap/react';

/**
 * The Web Speech API's recognition, as far as dictation uses it. TypeScript's DOM library has no
 * types for it (Chrome and Edge ship it prefixed as webkitSpeechRecognition).
 */
export interface TSpeechRecognitionResult {
  readonly isFinal: boolean;
  readonly length: number;
  readonly [index: number]: { readonly transcript: string };
}
export interface TSpeechRecognitionEvent {
  readonly resultIndex: number;
  readonly results: { readonly length: number; readonly [index: number]: TSpeechRecognitionResult };
}
export interface TSpeechRecognition {
  continuous: boolean;
  interimResults: boolean;
  lang: string;
  onresult: ((event: TSpeechRecognitionEvent) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}
export type TSpeechRecognitionConstructor = new () => TSpeechRecognition;

/** The browser's speech recognition, or null when it has none (Firefox, older Safari). */
export function getSpeechRecognition(): TSpeechRecognitionConstructor | null {
  const g = globalThis as unknown as {
    SpeechRecognition?: TSpeechRecognitionConstructor;
    webkitSpeechRecognition?: TSpeechRecognitionConstructor;
  };
  return g.SpeechRecognition ?? g.webkitSpeechRecognition ?? null;
}

/** Splits one recognition event into its final text and the interim text still being heard. */
export function readResults(event: TSpeechRecognitionEvent): { final: string; interim: string } {
  let final = '';
  let interim = '';
  for (let i = event.resultIndex; i < event.results.length; i++) {
    const result = event.results[i];
    const transcript = result?.[0]?.transcript ?? '';
    if (result?.isFinal) final += transcript;
    else interim += transcript;
  }
  return { final: final.trim(), interim: interim.trim() };
}

/**
 * Inserts dictated text at the editor's cursor, with the spoken commands of core parseDictation:
 * "new line" is a line break, "new paragraph" a new paragraph, "full stop", "comma"… punctuation.
 */
export function insertDictation(editor: Editor, transcript: string): void {
  const atLineStart = editor.state.selection.$from.parentOffset === 0;
  const pieces = parseDictation(transcript, atLineStart);
  if (pieces.length === 0) return;
  let chain = editor.chain().focus();
  for (const piece of pieces) {
    if (piece.kind === 'text') chain = chain.insertContent({ type: 'text', text: piece.text });
    else if (piece.kind === 'lineBreak') chain = chain.setHardBreak();
    else chain = chain.splitBlock();
  }
  chain.run();
}
