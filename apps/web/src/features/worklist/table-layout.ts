/**
 * Issue 21 §6: the table fits a 1280 px screen by default, and whatever columns a user adds, the
 * pinned ones (the row's actions) stay stuck to the right edge of the scrolling table: the cell is
 * opaque (the row's colour is painted over the paper) and casts a shadow on what scrolls under it.
 */
export const COMPACT_CELLS = { '& .MuiTableCell-root': { px: 1 } } as const;

export function pinnedCellSx(background?: string) {
  return {
    position: 'sticky',
    right: 0,
    zIndex: 1,
    bgcolor: 'background.paper',
    backgroundImage: background ? `linear-gradient(${background}, ${background})` : undefined,
    boxShadow: (theme: { palette: { divider: string } }) => `-1px 0 0 ${theme.palette.divider}`,
  } as const;
}
