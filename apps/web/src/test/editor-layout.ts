/**
 * ProseMirror scrolls the cursor into view with layout calls jsdom does not have: tests that insert
 * into a focused report editor (a template, the mic) stub them as empty.
 */
export function stubEditorLayout(): void {
  const emptyRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  const zeroRect = () => new DOMRect(0, 0, 0, 0);
  Range.prototype.getClientRects ??= emptyRects;
  Range.prototype.getBoundingClientRect ??= zeroRect;
  Element.prototype.getClientRects ??= emptyRects;
}
