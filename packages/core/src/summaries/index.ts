/** Summaries, report search and dashboards (issue 24): the date range rules and the spec's constants. */
export * from './range.js';
export * from './summary-screen.js';
