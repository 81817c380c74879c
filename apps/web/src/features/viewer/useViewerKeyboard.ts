import { useEffect, useRef } from 'react';
import { commandOfKey, isTextTarget, type TViewerCommand } from './viewer-keys';

const isInOverlay = (target: EventTarget | null) =>
  target instanceof Element && target.closest('[role="menu"], [role="dialog"], [role="listbox"]') !== null;

/**
 * The viewer's keys (spec-core §2) on the window while the viewer is open and no dialog has the
 * focus; Delete removes the selected drawing.
 */
export function useViewerKeyboard({
  enabled,
  canAnnotate,
  onCommand,
  onDelete,
}: {
  enabled: boolean;
  canAnnotate: boolean;
  onCommand: (command: TViewerCommand) => void;
  onDelete: () => void;
}) {
  const handlers = useRef({ onCommand, onDelete });
  handlers.current = { onCommand, onDelete };
  useEffect(() => {
    if (!enabled) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      // Not `defaultPrevented`: Cornerstone's own key listener on a clicked viewport prevents
      // the default of every key. Menus and dialogs keep their keys.
      if (isInOverlay(event.target)) return;
      const isTyping = isTextTarget(event.target);
      if (!isTyping && (event.key === 'Delete' || event.key === 'Backspace') && canAnnotate) {
        handlers.current.onDelete();
        return;
      }
      const command = commandOfKey(
        { key: event.key, ctrlKey: event.ctrlKey, metaKey: event.metaKey, altKey: event.altKey, isTyping },
        canAnnotate,
      );
      if (!command) return;
      event.preventDefault();
      handlers.current.onCommand(command);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled, canAnnotate]);
}
