export * from './presence.js';
