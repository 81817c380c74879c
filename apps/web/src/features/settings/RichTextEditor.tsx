import FormatAlignCenterIcon from '@mui/icons-material/FormatAlignCenter';
import FormatAlignLeftIcon from '@mui/icons-material/FormatAlignLeft';
import FormatAlignRightIcon from '@mui/icons-material/FormatAlignRight';
import FormatBoldIcon from '@mui/icons-material/FormatBold';
import FormatItalicIcon from '@mui/icons-material/FormatItalic';
import FormatListBulletedIcon from '@mui/icons-material/FormatListBulleted';
import FormatListNumberedIcon from '@mui/icons-material/FormatListNumbered';
import FormatUnderlinedIcon from '@mui/icons-material/FormatUnderlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { EDITOR_FONT_FAMILIES, EDITOR_FONT_SIZES } from '@radflow/core';
import TextAlign from '@tiptap/extension-text-align';
import { FontFamily, FontSize, TextStyle } from '@tiptap/extension-text-style';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import type { ReactNode } from 'react';

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
        {editor ? <Toolbar editor={editor} label={label} /> : null}
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

function Toolbar({ editor, label }: { editor: Editor; label: string }) {
  const chain = () => editor.chain().focus();
  const button = (name: string, icon: ReactNode, active: boolean, run: () => void) => (
    <IconButton
      size="small"
      aria-label={name}
      aria-pressed={active}
      color={active ? 'primary' : 'default'}
      onClick={run}
    >
      {icon}
    </IconButton>
  );
  const textStyle = editor.getAttributes('textStyle') as { fontSize?: string; fontFamily?: string };
  const heading = ([1, 2, 3] as const).find((level) => editor.isActive('heading', { level }));

  return (
    <Box
      role="toolbar"
      aria-label={`${label} formatting`}
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: 0.5,
        p: 0.5,
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      {button('Bold', <FormatBoldIcon fontSize="small" />, editor.isActive('bold'), () =>
        chain().toggleBold().run(),
      )}
      {button('Italic', <FormatItalicIcon fontSize="small" />, editor.isActive('italic'), () =>
        chain().toggleItalic().run(),
      )}
      {button('Underline', <FormatUnderlinedIcon fontSize="small" />, editor.isActive('underline'), () =>
        chain().toggleUnderline().run(),
      )}
      <TextField
        select
        size="small"
        variant="standard"
        value={heading ? String(heading) : '0'}
        onChange={(e) => {
          const level = Number(e.target.value);
          if (level === 0) chain().setParagraph().run();
          else
            chain()
              .toggleHeading({ level: level as 1 | 2 | 3 })
              .run();
        }}
        slotProps={{ htmlInput: { 'aria-label': 'Text type' } }}
        sx={{ minWidth: 100, mx: 0.5 }}
      >
        <MenuItem value="0">Normal</MenuItem>
        <MenuItem value="1">Heading 1</MenuItem>
        <MenuItem value="2">Heading 2</MenuItem>
        <MenuItem value="3">Heading 3</MenuItem>
      </TextField>
      {button(
        'Bulleted list',
        <FormatListBulletedIcon fontSize="small" />,
        editor.isActive('bulletList'),
        () => chain().toggleBulletList().run(),
      )}
      {button(
        'Numbered list',
        <FormatListNumberedIcon fontSize="small" />,
        editor.isActive('orderedList'),
        () => chain().toggleOrderedList().run(),
      )}
      {button(
        'Align left',
        <FormatAlignLeftIcon fontSize="small" />,
        editor.isActive({ textAlign: 'left' }),
        () => chain().setTextAlign('left').run(),
      )}
      {button(
        'Align center',
        <FormatAlignCenterIcon fontSize="small" />,
        editor.isActive({ textAlign: 'center' }),
        () => chain().setTextAlign('center').run(),
      )}
      {button(
        'Align right',
        <FormatAlignRightIcon fontSize="small" />,
        editor.isActive({ textAlign: 'right' }),
        () => chain().setTextAlign('right').run(),
      )}
      <TextField
        select
        size="small"
        variant="standard"
        value={textStyle.fontSize ?? ''}
        onChange={(e) =>
          e.target.value ? chain().setFontSize(e.target.value).run() : chain().unsetFontSize().run()
        }
        slotProps={{ htmlInput: { 'aria-label': 'Font size' }, select: { displayEmpty: true } }}
        sx={{ minWidth: 72, mx: 0.5 }}
      >
        <MenuItem value="">Size</MenuItem>
        {EDITOR_FONT_SIZES.map((size) => (
          <MenuItem key={size} value={`${size}pt`}>
            {size}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        variant="standard"
        value={textStyle.fontFamily ?? ''}
        onChange={(e) =>
          e.target.value ? chain().setFontFamily(e.target.value).run() : chain().unsetFontFamily().run()
        }
        slotProps={{ htmlInput: { 'aria-label': 'Font family' }, select: { displayEmpty: true } }}
        sx={{ minWidth: 140, mx: 0.5 }}
      >
        <MenuItem value="">Font</MenuItem>
        {EDITOR_FONT_FAMILIES.map((family) => (
          <MenuItem key={family} value={family} sx={{ fontFamily: family }}>
            {family}
          </MenuItem>
        ))}
      </TextField>
    </Box>
  );
}
