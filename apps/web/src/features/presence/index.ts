export { OnlineListButton } from './OnlineListButton';
export { PresenceHost } from './PresenceHost';
export { PRESENCE_BEAT_KEY } from './presence-api';
