import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { sendApiNotFound } from './errors.js';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Radflow</title></head>
<body style="font-family: sans-serif; background: #121212; color: #eee; padding: 2rem">
<h1>Radflow</h1>
<p>The web app is not built yet. Run <code>npm run build</code> in the repository, then reload.</p>
<p>The API is up: <a style="color: #90caf9" href="/api/docs">/api/docs</a>.</p>
</body></html>
`;

/** The hashes (CSP source form) of the inline scripts of a page: the start-up loader of index.html. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const [, attributes = '', body = ''] = match;
    if (/\bsrc\s*=/i.test(attributes) || body === '') continue;
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/**
 * The Content-Security-Policy of the app's pages (plugins/DECISIONS.md "Headers"). Scripts: our own
 * files and the inline start-up script by its hash; 'wasm-unsafe-eval' for the viewer's WebAssembly
 * codecs (Cornerstone), no eval. Workers from our files or blob:. Styles inline (the UI library
 * injects style elements at run time). Images: ours, data: and blob: only (report HTML keeps no other
 * site's image either). Connections: ours, https: for the zip download through a user's proxy
 * (spec-core §4), and plain http to this computer only, where the center's router answers
 * (/pacs-router, spec-core §7 'Local router'). Frames: ours and blob: (printing a PDF); framed only by our own pages.
 */
export function pageCsp(scriptHashes: readonly string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${[...scriptHashes, "'wasm-unsafe-eval'"].join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self' blob: data: https: http://localhost:* http://127.0.0.1:*",
    "media-src 'self' blob: data:",
    "worker-src 'self' blob:",
    "frame-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/**
 * Serves the built single-page app (apps/web/dist) and its history fallback: every GET outside
 * /api that is not a file answers index.html. Unknown /api paths answer the JSON 404.
 */
export const webPlugin = fp(
  async (app: FastifyInstance, opts: { webDistDir: string }) => {
    const indexFile = path.join(opts.webDistDir, 'index.html');
    const isBuilt = fs.existsSync(indexFile);
    // Read once: the build does not change under a running server (see `wildcard` below).
    const csp = pageCsp(isBuilt ? inlineScriptHashes(fs.readFileSync(indexFile, 'utf8')) : []);

    // Every answer, API or file: no sniffing a type we did not send, no framing by another site, and
    // no path in the Referer to other sites (a share page's address holds its link token). Not
    // 'no-referrer': with it browsers send `Origin: null` on our own POSTs (request-origin.ts).
    app.addHook('onSend', async (_request, reply) => {
      void reply.header('x-content-type-options', 'nosniff');
      void reply.header('x-frame-options', 'SAMEORIGIN');
      void reply.header('referrer-policy', 'same-origin');
    });
    if (isBuilt) {
      await app.register(fastifyStatic, {
        root: opts.webDistDir,
        prefix: '/',
        index: false,
        // One route per file of the build, listed once at start. With a wildcard route the plugin
        // lists each directory of the path on every request, to refuse differently cased aliases:
        // with ~1,800 files in assets/ (each with its .br and .gz) that was ~8 ms of the main
        // thread per asset, 100 ms of a viewer page's opening spent beside its first image
        // (VIEWER.md "Speed"). The build does not change under a running server.
        wildcard: false,
        // The web build writes .br and .gz beside each file (apps/web/scripts/precompress.mjs).
        preCompressed: true,
        setHeaders(reply, filePath) {
          if (filePath.endsWith('.html')) void reply.header('content-security-policy', csp);
          // Vite fingerprints everything under assets/; index.html must always be revalidated.
          void reply.header(
            'cache-control',
            filePath.includes(`${path.sep}assets${path.sep}`)
              ? 'public, max-age=31536000, immutable'
              : 'no-cache',
          );
        },
      });
    }

    const sendIndex = (reply: FastifyReply) => {
      void reply.header('content-security-policy', csp);
      return isBuilt
        ? reply.header('cache-control', 'no-cache').sendFile('index.html', opts.webDistDir)
        : reply.type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
    };
    // The root is a directory to the static handler; it is the app's start page.
    app.get('/', { schema: { hide: true } }, (_request, reply) => sendIndex(reply));

    app.setNotFoundHandler((request, reply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      if (pathname === '/api' || pathname.startsWith('/api/')) return sendApiNotFound(request, reply);
      const isPageRequest =
        (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/assets/');
      if (!isPageRequest) return sendApiNotFound(request, reply);
      return sendIndex(reply);
    });
  },
  { name: 'web' },
);
