/** Summaries, report search and dashboards (issue 24): the date range rules, the constants, the dashboards. */
export * from './range.js';
export * from './dashboard.js';
export * from './report-search.js';
export * from './summary-screen.js';
