import { WINDOW_PRESETS } from './viewer-shortcuts';

/** The Cornerstone tools the viewer offers, by their Cornerstone tool names. */
export const TOOL_NAMES = {
  windowLevel: 'WindowLevel',
  pan: 'Pan',
  zoom: 'Zoom',
  length: 'Length',
  ellipse: 'EllipticalROI',
  angle: 'Angle',
  arrow: 'ArrowAnnotate',
} as const;
export type TToolKey = keyof typeof TOOL_NAMES;

/** The tools that draw an annotation (hidden when the user may not annotate). */
export const DRAWING_TOOLS: readonly TToolKey[] = ['length', 'ellipse', 'angle', 'arrow'];

/** The key of each tool (spec-core §2 Viewer entry); window level is the default left drag. */
export const TOOL_KEYS: Partial<Record<TToolKey, string>> = {
  pan: 'm',
  zoom: 'z',
  length: 'l',
  ellipse: 'e',
  angle: 'a',
  arrow: 'y',
};

export type TViewerCommand =
  | { kind: 'preset'; index: number }
  | { kind: 'tool'; tool: TToolKey }
  | { kind: 'series'; step: -1 | 1 | 'first' | 'last' }
  | { kind: 'frame'; step: -1 | 1 };

export interface TKeyInput {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  /** The focused element is a text field: its keys are typing, not commands. */
  isTyping?: boolean;
}

/** The viewer command of a key press (spec-core §2 keyboard shortcuts), or null. */
export function commandOfKey(input: TKeyInput, canAnnotate: boolean): TViewerCommand | null {
  if (input.isTyping || input.ctrlKey || input.metaKey || input.altKey) return null;
  const presetIndex = WINDOW_PRESETS.findIndex((p) => p.key === input.key);
  if (presetIndex >= 0) return { kind: 'preset', index: presetIndex };
  switch (input.key) {
    case 'Home':
      return { kind: 'series', step: 'first' };
    case 'End':
      return { kind: 'series', step: 'last' };
    case 'ArrowLeft':
      return { kind: 'series', step: -1 };
    case 'ArrowRight':
      return { kind: 'series', step: 1 };
    case 'ArrowUp':
      return { kind: 'frame', step: -1 };
    case 'ArrowDown':
      return { kind: 'frame', step: 1 };
    default:
      break;
  }
  const lower = input.key.length === 1 ? input.key.toLowerCase() : input.key;
  const tool = (Object.keys(TOOL_KEYS) as TToolKey[]).find((t) => TOOL_KEYS[t] === lower);
  if (!tool) return null;
  if (!canAnnotate && DRAWING_TOOLS.includes(tool)) return null;
  return { kind: 'tool', tool };
}

/** Whether an event target is a place where keys type text. */
export function isTextTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}
