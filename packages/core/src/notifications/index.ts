export * from './api.js';
export * from './audiences.js';
export * from './popups.js';
