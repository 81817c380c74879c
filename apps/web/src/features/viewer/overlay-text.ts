/**
 * The texts of the viewport corners (issue 5 §2 overlays), as pure functions of what is shown. The
 * patient's name is core formatPersonName, as on every screen.
 */
export { formatPersonName } from '@radflow/core';

/** DICOM DA (YYYYMMDD) in the spec's date format yyyy-MM-dd; other text as it is. */
export function formatStudyDate(da: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(da.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}` : da.trim();
}

export function formatWindow(width: number | null, level: number | null): string {
  if (width === null || level === null) return 'W: — L: —';
  return `W: ${Math.round(width)} L: ${Math.round(level)}`;
}

export function formatZoom(zoom: number): string {
  return `Zoom: ${Math.round(zoom * 100)}%`;
}

/** 'Img: 3/20', or the frame of a multi-frame instance. */
export function formatSlice(index: number, total: number): string {
  return total > 0 ? `Img: ${index + 1}/${total}` : 'Img: —';
}
