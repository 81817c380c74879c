import FormatAlignCenterIcon from '@mui/icons-material/FormatAlignCenter';
import FormatAlignJustifyIcon from '@mui/icons-material/FormatAlignJustify';
import FormatAlignLeftIcon from '@mui/icons-material/FormatAlignLeft';
import FormatAlignRightIcon from '@mui/icons-material/FormatAlignRight';
import FormatBoldIcon from '@mui/icons-material/FormatBold';
import FormatItalicIcon from '@mui/icons-material/FormatItalic';
import FormatListBulletedIcon from '@mui/icons-material/FormatListBulleted';
import FormatListNumberedIcon from '@mui/icons-material/FormatListNumbered';
import FormatUnderlinedIcon from '@mui/icons-material/FormatUnderlined';
import TableChartIcon from '@mui/icons-material/TableChart';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import type { SxProps, Theme } from '@mui/material/styles';
import { EDITOR_FONT_FAMILIES, EDITOR_FONT_SIZES } from '@radflow/core';
import type { Editor } from '@tiptap/react';
import { useState, type ReactNode } from 'react';

/**
 * The toolbar's dropdowns (Text type, Font size, Font family). The app's theme makes every TextField
 * full width, which stacked them under each other (issue 21 §7): here each is one compact item of
 * the row, as in the word processors doctors know.
 */
const COMPACT_SELECT = { select: true, fullWidth: false, size: 'small', variant: 'standard' } as const;

/** The table commands of the toolbar's Table menu (label → command). */
const TABLE_ACTIONS: Array<[string, (editor: Editor) => boolean]> = [
  ['Insert table', (e) => e.chain().focus().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run()],
  ['Add row below', (e) => e.chain().focus().addRowAfter().run()],
  ['Add column right', (e) => e.chain().focus().addColumnAfter().run()],
  ['Delete row', (e) => e.chain().focus().deleteRow().run()],
  ['Delete column', (e) => e.chain().focus().deleteColumn().run()],
  ['Delete table', (e) => e.chain().focus().deleteTable().run()],
];

/**
 * The formatting bar of our TipTap editors: the report editor (tables, justify, and in `extra` the
 * tools of the editor's place: key image, mic) and the report text sections of the settings, whose
 * editor has no tables and no justify.
 */
export function FormattingToolbar({
  editor,
  label = 'Report formatting',
  tables = true,
  justify = true,
  extra,
  sx,
}: {
  editor: Editor;
  label?: string;
  tables?: boolean;
  justify?: boolean;
  extra?: ReactNode;
  sx?: SxProps<Theme>;
}) {
  const [tableMenu, setTableMenu] = useState<HTMLElement | null>(null);
  const chain = () => editor.chain().focus();
  const button = (name: string, icon: ReactNode, active: boolean, run: () => void) => (
    <Tooltip title={name}>
      <IconButton
        size="small"
        aria-label={name}
        aria-pressed={active}
        color={active ? 'primary' : 'default'}
        onClick={run}
      >
        {icon}
      </IconButton>
    </Tooltip>
  );
  const textStyle = editor.getAttributes('textStyle') as { fontSize?: string; fontFamily?: string };
  const heading = ([1, 2, 3] as const).find((level) => editor.isActive('heading', { level }));
  const inTable = editor.isActive('table');

  return (
    <Box
      role="toolbar"
      aria-label={label}
      sx={[
        { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.25, p: 0.5 },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      <TextField
        {...COMPACT_SELECT}
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
        sx={{ minWidth: 96, mx: 0.5 }}
      >
        <MenuItem value="0">Normal</MenuItem>
        <MenuItem value="1">Heading 1</MenuItem>
        <MenuItem value="2">Heading 2</MenuItem>
        <MenuItem value="3">Heading 3</MenuItem>
      </TextField>
      {button('Bold', <FormatBoldIcon fontSize="small" />, editor.isActive('bold'), () =>
        chain().toggleBold().run(),
      )}
      {button('Italic', <FormatItalicIcon fontSize="small" />, editor.isActive('italic'), () =>
        chain().toggleItalic().run(),
      )}
      {button('Underline', <FormatUnderlinedIcon fontSize="small" />, editor.isActive('underline'), () =>
        chain().toggleUnderline().run(),
      )}
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
      {justify &&
        button(
          'Justify',
          <FormatAlignJustifyIcon fontSize="small" />,
          editor.isActive({ textAlign: 'justify' }),
          () => chain().setTextAlign('justify').run(),
        )}
      <TextField
        {...COMPACT_SELECT}
        value={textStyle.fontSize ?? ''}
        onChange={(e) =>
          e.target.value ? chain().setFontSize(e.target.value).run() : chain().unsetFontSize().run()
        }
        slotProps={{ htmlInput: { 'aria-label': 'Font size' }, select: { displayEmpty: true } }}
        sx={{ minWidth: 64, mx: 0.5 }}
      >
        <MenuItem value="">Size</MenuItem>
        {EDITOR_FONT_SIZES.map((size) => (
          <MenuItem key={size} value={`${size}pt`}>
            {size}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        {...COMPACT_SELECT}
        value={textStyle.fontFamily ?? ''}
        onChange={(e) =>
          e.target.value ? chain().setFontFamily(e.target.value).run() : chain().unsetFontFamily().run()
        }
        slotProps={{ htmlInput: { 'aria-label': 'Font family' }, select: { displayEmpty: true } }}
        sx={{ minWidth: 120, mx: 0.5 }}
      >
        <MenuItem value="">Font</MenuItem>
        {EDITOR_FONT_FAMILIES.map((family) => (
          <MenuItem key={family} value={family} sx={{ fontFamily: family }}>
            {family}
          </MenuItem>
        ))}
      </TextField>
      {tables && (
        <>
          <Button
            size="small"
            startIcon={<TableChartIcon fontSize="small" />}
            aria-haspopup="menu"
            onClick={(e) => setTableMenu(e.currentTarget)}
          >
            Table
          </Button>
          <Menu anchorEl={tableMenu} open={tableMenu !== null} onClose={() => setTableMenu(null)}>
            {TABLE_ACTIONS.map(([label, run], index) => (
              <MenuItem
                key={label}
                // Only inserting makes sense outside a table.
                disabled={index > 0 && !inTable}
                onClick={() => {
                  setTableMenu(null);
                  run(editor);
                }}
              >
                {label}
              </MenuItem>
            ))}
          </Menu>
        </>
      )}
      {extra ? (
        <>
          <Divider orientation="vertical" flexItem sx={{ mx: 0.5 }} />
          {extra}
        </>
      ) : null}
    </Box>
  );
}
