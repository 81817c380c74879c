import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { AppError, ROUTER_SERVED_META } from '@radflow/core';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The web app's built files at / (HYBRID.md "How the browser finds the router"): the same build the
 * cloud serves, so `http://localhost:8090/hybrid-study-list` opens with the cloud unreachable. Its
 * index.html gets the router meta tag (core ROUTER_SERVED_META), which makes the app talk to this
 * origin's local API instead of the cloud's /api. A path without an extension is an app route
 * (index.html); a missing file is 404. Nothing outside the directory is served.
 */
export function registerWebApp(app: FastifyInstance, webDir: string): void {
  const root = resolve(webDir);
  let index: Promise<string> | undefined;
  const indexHtml = () =>
    (index ??= readFile(resolve(root, 'index.html'), 'utf8').then((html) =>
      html.replace(
        '</head>',
        `<meta name="${ROUTER_SERVED_META.name}" content="${ROUTER_SERVED_META.content}"></head>`,
      ),
    ));

  app.get('/*', { config: { isPublic: true } }, async (request, reply) => {
    const pathname = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    const file = resolve(root, `.${pathname}`);
    if (file !== root && !file.startsWith(root + sep)) throw new AppError('NOT_FOUND', 'Not found');
    const found = await stat(file).catch(() => null);
    if (found?.isFile() && !file.endsWith(`${sep}index.html`)) {
      void reply.header('content-type', TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream');
      void reply.header(
        'cache-control',
        pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
      return reply.send(createReadStream(file));
    }
    if (pathname.startsWith('/api/') || (extname(pathname) !== '' && !pathname.endsWith('.html'))) {
      throw new AppError('NOT_FOUND', 'Not found');
    }
    void reply.header('content-type', TYPES['.html']).header('cache-control', 'no-cache');
    return reply.send(await indexHtml());
  });
}
