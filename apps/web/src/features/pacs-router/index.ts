/** The /pacs-router screen (issue 27 §2): the router's state, queue, settings and update offer. */
export { default as PacsRouterPage } from './PacsRouterPage';
