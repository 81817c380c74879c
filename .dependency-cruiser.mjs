/**
 * Module boundaries of the server (issue 22 §1). madge (`npm run cycles`) finds import cycles between
 * files; this finds them between folders: a server module folder (apps/server/src/modules/<name>),
 * `db` or `plugins` may not import, directly or through other folders, a folder that imports it back.
 * A rule two modules both need gets its own module that imports neither (see
 * apps/server/src/modules/studies/README.md). No exceptions are listed here, on purpose: a new cycle
 * is fixed, not allowed.
 *
 * Tests are left out (`*.test.ts` wherever they sit, and the shared test support in apps/server/test):
 * a test may reach into any module it exercises, and it is no part of the module's own dependencies.
 * A test helper kept inside a module folder under another name counts as module code.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-server-folder-cycle',
      severity: 'error',
      comment:
        'Two server folders (modules/<name>, db, plugins) import each other, directly or through other folders. Give the rule both need its own module that imports neither side.',
      scope: 'folder',
      from: { path: '^apps/server/src/(db|plugins|modules/[^/]+)(/|$)' },
      to: { path: '^apps/server/src/(db|plugins|modules/[^/]+)(/|$)', circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '\\.test\\.tsx?$', '^apps/server/test/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
  },
};
