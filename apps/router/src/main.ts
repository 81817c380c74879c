import { loadRouterConfig } from './config.js';

const config = loadRouterConfig(process.env);
console.warn(
  `Radflow router: configuration valid (port ${config.ROUTER_PORT}, server ${config.ROUTER_SERVER_URL}); ` +
    'the receiving and upload services arrive with the router issue.',
);
