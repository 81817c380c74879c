export * from './chat.js';
export * from './support-chat.js';
