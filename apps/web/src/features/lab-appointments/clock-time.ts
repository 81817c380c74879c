import { formatTimestamp } from '../../lib/format';

/** HH:mm of an instant in the group's display zone (the session sets the zone for formatTimestamp). */
export const clockTime = (iso: string) => formatTimestamp(iso, { label: false }).slice(11, 16);
