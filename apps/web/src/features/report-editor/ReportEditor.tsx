import Box from '@mui/material/Box';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import { useEffect, useRef, type ReactNode } from 'react';
import { FormattingToolbar } from '../../components/FormattingToolbar';
import { reportEditorExtensions } from './editor-extensions';

/** The look of report HTML, shared by the editor, the preview and the version compare. */
export const reportBodySx = {
  '& p': { my: 0.5 },
  '& table': { borderCollapse: 'collapse', width: '100%', my: 1 },
  '& td, & th': { border: '1px solid', borderColor: 'divider', p: 0.5, verticalAlign: 'top' },
  '& img': { maxWidth: '100%', display: 'block', my: 1 },
  '& .selectedCell': { bgcolor: 'action.selected' },
} as const;

/**
 * The rich-text report editor (issue 7 §1, TipTap): headings, bold/italic/underline, lists, tables,
 * alignment, font size and family, images. The user's editor settings give the text's default size
 * and family (EDITOR_PREFERENCES). Read-only when `editable` is false (no toolbar then).
 */
export function ReportEditor({
  label,
  initialContent,
  editable,
  fontSize,
  fontFamily,
  onChange,
  onEditor,
  tools,
}: {
  label: string;
  initialContent: string;
  editable: boolean;
  /** Points (EDITOR_PREFERENCES.defaultEditorFontSize). */
  fontSize: number;
  fontFamily: string;
  onChange?: (html: string) => void;
  /** The TipTap editor once made (the key-image button and the mic insert into it). */
  onEditor?: (editor: Editor | null) => void;
  tools?: ReactNode;
}) {
  // The editor is made once; its update handler calls the latest onChange.
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const editor = useEditor({
    extensions: reportEditorExtensions(),
    content: initialContent,
    editable,
    // The toolbar shows the marks under the cursor.
    shouldRerenderOnTransaction: true,
    editorProps: {
      attributes: { 'aria-label': label, role: 'textbox', 'aria-multiline': 'true' },
    },
    onUpdate: ({ editor: current }) => onChangeRef.current?.(current.isEmpty ? '' : current.getHTML()),
  });

  useEffect(() => {
    // No update event: becoming read-only is not a change of the text.
    if (editor && editor.isEditable !== editable) editor.setEditable(editable, false);
  }, [editor, editable]);

  useEffect(() => {
    onEditor?.(editor);
    return () => onEditor?.(null);
  }, [editor, onEditor]);

  return (
    <Box
      sx={{
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
      }}
    >
      {editor && editable ? (
        <Box sx={{ borderBottom: 1, borderColor: 'divider' }}>
          <FormattingToolbar editor={editor} extra={tools} />
        </Box>
      ) : null}
      <Box
        sx={{
          px: 1.5,
          flex: 1,
          overflowY: 'auto',
          fontSize: `${fontSize}pt`,
          fontFamily,
          '& .tiptap': { outline: 'none', minHeight: 240 },
          ...reportBodySx,
        }}
      >
        <EditorContent editor={editor} />
      </Box>
    </Box>
  );
}
