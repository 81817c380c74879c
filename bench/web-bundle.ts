/**
 * What the browser loads for the login page plus the study list (issue 4 §5 Figures): the gzip size
 * of the entry chunk and its static imports, the login route's lazy chunk, and the study-list
 * routes' lazy chunk(s), each with their static imports, counted once. Also checks that the viewer
 * and the report editor are lazy chunks of their own (not in that set). Target ≤ 300 KB gzip.
 *
 * Builds nothing: run `npm run build -w @radflow/web` first. Reads apps/web/dist: the Vite manifest
 * when the build wrote one (build.manifest), otherwise index.html plus the import statements of the
 * built chunks; which source modules a chunk holds comes from its source map (build.sourcemap).
 *
 * Usage: npx tsx bench/web-bundle.ts [--dist apps/web/dist] [--json]
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const args = process.argv.slice(2);
const argOf = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? (args[at + 1] as string) : fallback;
};
const dist = resolve(argOf('--dist', join(import.meta.dirname, '../apps/web/dist')));
const asJson = args.includes('--json');
const out = (line: string) => process.stdout.write(`${line}\n`);

const TARGET_GZIP_BYTES = 300 * 1024;
/** Source modules that mark a route's lazy chunk. */
const LOGIN_SOURCE = /\/src\/features\/auth\/LoginPage\.tsx$/;
/**
 * The study list route's screen (features/worklist/StudyListPage.tsx, the route at /). Not any file of
 * features/worklist: the offline hybrid list's route (its own lazy chunk, with the report editor)
 * lives there too, and matching it counted the editor into the login + list figure.
 */
const STUDY_LIST_SOURCE = /\/src\/features\/worklist\/StudyListPage\.tsx$/;
/**
 * The viewer's code: not its shortcuts list (the help screen's) nor ViewerRoute.tsx, the route's
 * switch between the two lazy viewers, which the routes table imports.
 */
const VIEWER_SOURCE = /\/src\/features\/viewer\/(?!viewer-shortcuts\.ts$|ViewerRoute\.tsx$)/;
const EDITOR_SOURCE = /\/src\/features\/(report-editor|editor|reporting)\//;

interface TChunk {
  /** Path under dist, e.g. assets/index-abc.js. */
  file: string;
  imports: string[];
  dynamicImports: string[];
  /** Source modules (repo-relative-ish paths from the source map). */
  sources: string[];
}

function sourcesOf(file: string): string[] {
  const map = join(dist, `${file}.map`);
  if (!existsSync(map)) return [];
  const parsed = JSON.parse(readFileSync(map, 'utf8')) as { sources?: string[] };
  return (parsed.sources ?? []).map((s) => posix.normalize(`/${s.replace(/\\/g, '/')}`));
}

/** The chunk graph from the Vite manifest, when the build wrote one. */
function graphFromManifest(): { entry: string; chunks: Map<string, TChunk> } | null {
  const path = join(dist, '.vite/manifest.json');
  if (!existsSync(path)) return null;
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<
    string,
    { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] }
  >;
  const fileOf = (key: string) => manifest[key]?.file ?? key;
  const chunks = new Map<string, TChunk>();
  let entry = '';
  for (const item of Object.values(manifest)) {
    if (!item.file.endsWith('.js')) continue;
    if (item.isEntry) entry = item.file;
    chunks.set(item.file, {
      file: item.file,
      imports: (item.imports ?? []).map(fileOf),
      dynamicImports: (item.dynamicImports ?? []).map(fileOf),
      sources: sourcesOf(item.file),
    });
  }
  return entry ? { entry, chunks } : null;
}

/** The chunk graph from index.html and the chunks' own `import … from "./x.js"` / `import("./x.js")`. */
function graphFromFiles(): { entry: string; chunks: Map<string, TChunk> } {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  // The entry's own tag, or the modulepreload link index.html's loader starts it from (vite.config.ts).
  const entrySrc =
    /<script[^>]*type="module"[^>]*src="\/?([^"]+)"/.exec(html)?.[1] ??
    /<link[^>]*rel="modulepreload"[^>]*href="\/?([^"]+)"[^>]*data-entry/.exec(html)?.[1];
  if (!entrySrc) throw new Error(`no module script in ${dist}/index.html`);
  const chunks = new Map<string, TChunk>();
  for (const name of readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js'))) {
    const file = `assets/${name}`;
    const code = readFileSync(join(dist, file), 'utf8');
    const resolveRef = (ref: string) => posix.join('assets', ref);
    const imports = new Set<string>();
    const dynamicImports = new Set<string>();
    for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*["'`](\.\/[^"'`]+\.js)["'`]/g))
      imports.add(resolveRef(m[1] as string));
    for (const m of code.matchAll(/\bimport\(\s*["'`](\.\/[^"'`]+\.js)["'`]\s*\)/g)) {
      dynamicImports.add(resolveRef(m[1] as string));
    }
    chunks.set(file, {
      file,
      imports: [...imports],
      dynamicImports: [...dynamicImports],
      sources: sourcesOf(file),
    });
  }
  return { entry: entrySrc, chunks };
}

function staticClosure(chunks: Map<string, TChunk>, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    stack.push(...(chunks.get(file)?.imports ?? []));
  }
  return seen;
}

const gzipBytes = (file: string) => gzipSync(readFileSync(join(dist, file))).length;
const rawBytes = (file: string) => readFileSync(join(dist, file)).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function main(): void {
  if (!existsSync(join(dist, 'index.html')))
    throw new Error(`No build in ${dist}: npm run build -w @radflow/web`);
  const graph = graphFromManifest() ?? graphFromFiles();
  const { entry, chunks } = graph;
  const initial = staticClosure(chunks, [entry]);
  const holds = (file: string, pattern: RegExp) =>
    chunks.get(file)?.sources.some((s) => pattern.test(s)) === true;
  const lazyTargets = new Set([...chunks.values()].flatMap((c) => c.dynamicImports));
  const lazyWith = (pattern: RegExp) => [...lazyTargets].filter((file) => holds(file, pattern));
  // A route's chunk is what the router (in the entry's static closure) imports lazily; what a
  // route chunk imports lazily in turn (its dialogs) loads on demand and is not counted.
  const routeChunks = new Set([...initial].flatMap((file) => chunks.get(file)?.dynamicImports ?? []));
  const routeChunksWith = (pattern: RegExp) => [...routeChunks].filter((file) => holds(file, pattern));

  const loginChunks = routeChunksWith(LOGIN_SOURCE);
  const listChunks = routeChunksWith(STUDY_LIST_SOURCE);

  const loaded = staticClosure(chunks, [entry, ...loginChunks, ...listChunks]);
  const files = [...loaded].sort();
  const rows = files.map((file) => ({
    file,
    role:
      file === entry
        ? 'entry'
        : initial.has(file)
          ? 'entry import'
          : loginChunks.includes(file)
            ? 'login route'
            : listChunks.includes(file)
              ? 'study list route'
              : 'import of a route chunk',
    raw: rawBytes(file),
    gzip: gzipBytes(file),
  }));
  const totalGzip = rows.reduce((sum, r) => sum + r.gzip, 0);
  const totalRaw = rows.reduce((sum, r) => sum + r.raw, 0);

  const separation = (label: string, pattern: RegExp) => {
    const lazy = lazyWith(pattern);
    const leaked = files.filter((file) => holds(file, pattern));
    const status =
      lazy.length === 0 && leaked.length === 0
        ? 'not built yet'
        : leaked.length > 0
          ? `NOT separate: in ${leaked.join(', ')}`
          : `lazy, not loaded with the list: ${lazy.join(', ')} (${kb(lazy.reduce((s, f) => s + gzipBytes(f), 0))} gzip)`;
    return { label, status, ok: leaked.length === 0 };
  };
  const checks = [separation('viewer', VIEWER_SOURCE), separation('report editor', EDITOR_SOURCE)];
  const passed =
    totalGzip <= TARGET_GZIP_BYTES &&
    loginChunks.length > 0 &&
    listChunks.length > 0 &&
    checks.every((c) => c.ok);

  if (asJson) {
    out(JSON.stringify({ dist, totalGzip, totalRaw, rows, checks, passed }, null, 2));
    return;
  }
  out('JavaScript for login + study list (gzip level 6, each chunk counted once):');
  out('| chunk | loaded as | raw | gzip |');
  out('|---|---|---:|---:|');
  for (const r of rows) out(`| ${r.file} | ${r.role} | ${kb(r.raw)} | ${kb(r.gzip)} |`);
  out(`| **total** | | ${kb(totalRaw)} | **${kb(totalGzip)}** |`);
  out(`target ≤ ${kb(TARGET_GZIP_BYTES)} gzip: ${totalGzip <= TARGET_GZIP_BYTES ? 'ok' : 'MISSED'}`);
  if (loginChunks.length === 0) out('login route chunk: NOT FOUND (LoginPage is not a lazy chunk)');
  if (listChunks.length === 0) out('study list route chunk: NOT FOUND (no lazy chunk holds the study list)');
  for (const c of checks) out(`${c.label}: ${c.status}`);
  // The figure is what a compressing server would send; say whether ours can (precompressed files).
  const precompressed = files.filter(
    (f) => existsSync(join(dist, `${f}.gz`)) || existsSync(join(dist, `${f}.br`)),
  );
  out(
    precompressed.length === files.length
      ? 'served compressed: every chunk has a .gz/.br beside it'
      : `served compressed: ${precompressed.length} of ${files.length} chunks have a .gz/.br beside them; without a compressing proxy the browser downloads ${kb(totalRaw)}`,
  );
}

main();
