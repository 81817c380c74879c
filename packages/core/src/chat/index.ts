export * from './chat.js';
