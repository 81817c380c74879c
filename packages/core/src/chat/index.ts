export * from './chat.js';
export * from './support-chat.js';
export * from './support-paths.js';
