const pad = (n: number) => String(n).padStart(2, '0');

/** A timestamp as yyyy-MM-dd HH:mm:ss in local time (spec-core §9); '—' when absent or unreadable. */
export function formatTimestamp(value: string | null | undefined): string {
  if (!value) return '—';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  );
}
