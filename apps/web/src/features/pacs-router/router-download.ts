/**
 * The router's installable build (spec-core §2 Shell 'Download router'; issue 27 §5), served by the
 * cloud. Built by the release part of issue 27; the drawer entry and the screen link here.
 */
export const ROUTER_DOWNLOAD_PATH = '/api/router/download';
