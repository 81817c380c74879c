import { alpha, type Theme } from '@mui/material/styles';

/**
 * Issue 21 §6: the table fits a 1280 px screen by default, and whatever columns a user adds, the
 * pinned ones (the row's actions) stay stuck to the right edge of the scrolling table: the cell is
 * opaque (the row's colour is painted over the paper) and casts a shadow on what scrolls under it.
 */
export const COMPACT_CELLS = { '& .MuiTableCell-root': { px: 1 } } as const;

/** Colours painted over the paper, top first, as one background-image (undefined: none). */
function layers(...colours: (string | undefined)[]): string | undefined {
  const painted = colours.filter((c): c is string => Boolean(c));
  return painted.length ? painted.map((c) => `linear-gradient(${c}, ${c})`).join(', ') : undefined;
}

/**
 * The pinned cell paints what the row paints under its other cells: the row's colour, and over it
 * the hover and selected shades MUI gives the row itself (an opaque cell would otherwise hide them,
 * and the actions would look like a part of another row).
 */
export function pinnedCellSx(background?: string) {
  return {
    position: 'sticky',
    right: 0,
    zIndex: 1,
    bgcolor: 'background.paper',
    backgroundImage: layers(background),
    boxShadow: (theme: Theme) => `-1px 0 0 ${theme.palette.divider}`,
    '.MuiTableRow-root.Mui-selected > &': {
      backgroundImage: (theme: Theme) =>
        layers(alpha(theme.palette.primary.main, theme.palette.action.selectedOpacity), background),
    },
    '.MuiTableRow-hover:hover > &': {
      backgroundImage: (theme: Theme) => layers(theme.palette.action.hover, background),
    },
    '.MuiTableRow-hover.Mui-selected:hover > &': {
      backgroundImage: (theme: Theme) =>
        layers(
          alpha(
            theme.palette.primary.main,
            theme.palette.action.selectedOpacity + theme.palette.action.hoverOpacity,
          ),
          background,
        ),
    },
  } as const;
}
