export * from './critical-results.js';
