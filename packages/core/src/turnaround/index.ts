/** Turnaround at risk (issue 24 §4): a doctor's pace, the forecast of each open study, the suggestion. */
export * from './pace.js';
export * from './forecast.js';
export * from './schemas.js';
