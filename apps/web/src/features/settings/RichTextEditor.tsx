import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import TextAlign from '@tiptap/extension-text-align';
import { FontFamily, FontSize, TextStyle } from '@tiptap/extension-text-style';
import { EditorContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { FormattingToolbar } from '../../components/FormattingToolbar';

/**
 * A small TipTap editor for the report text sections (header, footer, disclaimer). Produces only
 * what the server's sanitiser keeps: paragraphs, headings, bold/italic/underline, lists, alignment,
 * font size (pt) and family. Only the report text dialog imports it, so TipTap loads with it.
 */
export function RichTextEditor({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (html: string) => void;
}) {
  const editor = useEditor({
    extensions: [
      StarterKit.configure({ code: false, codeBlock: false, blockquote: false, link: false, strike: false }),
      TextStyle,
      FontSize,
      FontFamily,
      TextAlign.configure({ types: ['heading', 'paragraph'] }),
    ],
    content: value,
    // The toolbar shows the marks under the cursor.
    shouldRerenderOnTransaction: true,
    editorProps: { attributes: { 'aria-label': label, role: 'textbox', 'aria-multiline': 'true' } },
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? '' : current.getHTML()),
  });

  return (
    <Box>
      <Typography variant="subtitle2" gutterBottom>
        {label}
      </Typography>
      <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
        {editor ? (
          <FormattingToolbar
            editor={editor}
            label={`${label} formatting`}
            tables={false}
            justify={false}
            sx={{ borderBottom: 1, borderColor: 'divider' }}
          />
        ) : null}
        <Box
          sx={{
            px: 1.5,
            minHeight: 96,
            '& .tiptap': { outline: 'none', minHeight: 96 },
            '& .tiptap p': { my: 0.5 },
          }}
        >
          <EditorContent editor={editor} />
        </Box>
      </Box>
    </Box>
  );
}
