export { ChatRowButton } from './ChatRowButton';
export { CHAT_UNSEEN_KEY, chatThreadKey, useChatUnseenCounts } from './chat-api';
