import routerPackage from '../../package.json' with { type: 'json' };

/** This build's version (apps/router/package.json; bundled into the artefact by esbuild). */
export const ROUTER_VERSION: string = routerPackage.version;
