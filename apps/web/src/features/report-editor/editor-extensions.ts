import { Node, mergeAttributes } from '@tiptap/react';
import { TableKit } from '@tiptap/extension-table';
import TextAlign from '@tiptap/extension-text-align';
import { FontFamily, FontSize, TextStyle } from '@tiptap/extension-text-style';
import StarterKit from '@tiptap/starter-kit';

/*
 * What the report editor can produce: exactly what the server's sanitizeReportHtml keeps (headings,
 * bold/italic/underline, lists, tables, alignment, font size and family, images from our assets).
 */

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    reportImage: {
      /** Inserts an image block (a key image from the viewer: `/api/assets/{id}`). */
      insertReportImage: (attrs: { src: string; alt?: string }) => ReturnType;
    };
  }
}

/** A block image; only `src` and `alt` are kept (the sanitiser drops other attributes). */
export const ReportImage = Node.create({
  name: 'image',
  group: 'block',
  atom: true,
  draggable: true,
  addAttributes() {
    return { src: { default: null }, alt: { default: null } };
  },
  parseHTML() {
    return [{ tag: 'img[src]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['img', mergeAttributes(HTMLAttributes)];
  },
  addCommands() {
    return {
      insertReportImage:
        (attrs) =>
        ({ commands }) =>
          commands.insertContent({ type: this.name, attrs }),
    };
  },
});

export function reportEditorExtensions() {
  return [
    StarterKit.configure({ code: false, codeBlock: false, blockquote: false, link: false, strike: false }),
    TextStyle,
    FontSize,
    FontFamily,
    TextAlign.configure({ types: ['heading', 'paragraph'] }),
    TableKit.configure({ table: { resizable: false } }),
    ReportImage,
  ];
}
