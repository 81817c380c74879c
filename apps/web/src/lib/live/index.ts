// The tab's live stream of study events (issue 23 §4; server modules/live/README.md).
export type { TLiveEvent, TLiveStatus } from './live-connection';
export { onLiveEvent } from './live-updates';
export { useLiveStatus, useLiveUpdates } from './useLiveUpdates';
