export * from './release.js';
