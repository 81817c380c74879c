export * from './paths.js';
export * from './tutorials.js';
export * from './training-videos.js';
