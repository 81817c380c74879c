import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { SESSION_COOKIE_NAME } from '@radflow/core';
import { type BuildAppOptions, buildApp } from '../src/app.js';
import { type DbHandle, openPglite, openPostgres } from '../src/db/client.js';
import { FsBlobStore } from '../src/modules/storage/blob-store.js';
import { TEMPLATE_DB, withDatabase } from './global-setup.js';
import { type TestClient, writeMigratedDataDir } from './test-app.js';

/** One message of the stream, as EventSource would dispatch it. */
export interface TSseMessage {
  event: string;
  /** The `id:` of this message, if it had one. */
  id: string | null;
  data: string;
}

/**
 * A browser's EventSource on GET /api/live, over a real socket (inject waits for the end of a
 * response; a stream has none): the messages so far, `waitFor` a message, the last event id.
 */
export class LiveClient {
  readonly messages: TSseMessage[] = [];
  lastEventId: string | null = null;
  private buffer = '';
  private waiters: Array<() => void> = [];
  private ended = false;

  private constructor(private readonly request: http.ClientRequest) {}

  /**
   * Opens the stream at `baseUrl` as `browser` (its session cookie and device headers). Answers
   * the client once the response's head arrived, with its status (a refusal's body in `refusal`).
   */
  static open(
    baseUrl: string,
    browser: TestClient | null,
    opts: { lastEventId?: string; query?: string } = {},
  ): Promise<{ status: number; client: LiveClient; refusal: string }> {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (browser) {
      headers['x-device-id'] = browser.deviceId;
      headers['x-device-name'] = browser.deviceName;
      if (browser.cookie) headers.cookie = `${SESSION_COOKIE_NAME}=${browser.cookie}`;
    }
    if (opts.lastEventId !== undefined) headers['last-event-id'] = opts.lastEventId;
    return new Promise((resolve, reject) => {
      const request = http.get(`${baseUrl}/api/live${opts.query ?? ''}`, { headers });
      const client = new LiveClient(request);
      request.once('error', reject);
      request.once('response', (response) => {
        response.setEncoding('utf8');
        if (response.statusCode !== 200) {
          let refusal = '';
          response.on('data', (chunk: string) => (refusal += chunk));
          response.once('end', () => resolve({ status: response.statusCode ?? 0, client, refusal }));
          return;
        }
        response.on('data', (chunk: string) => client.take(chunk));
        response.once('close', () => client.end());
        resolve({ status: 200, client, refusal: '' });
      });
    });
  }

  /** Opens a stream that must be accepted. */
  static async connect(
    baseUrl: string,
    browser: TestClient,
    opts: { lastEventId?: string; query?: string } = {},
  ): Promise<LiveClient> {
    const { status, client, refusal } = await LiveClient.open(baseUrl, browser, opts);
    if (status !== 200) throw new Error(`GET /api/live: ${status} ${refusal}`);
    await client.waitFor((m) => m.event === 'ready');
    return client;
  }

  /** The `study` events so far, parsed. */
  get studyEvents(): Array<{ id: number; reportStatusId: number; type: string }> {
    return this.messages.filter((m) => m.event === 'study').map((m) => JSON.parse(m.data));
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** Resolves with the first message (so far or to come) that `match`es; fails after `timeoutMs`. */
  waitFor(match: (message: TSseMessage) => boolean, timeoutMs = 5_000): Promise<TSseMessage> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.messages.find(match);
        if (found) {
          clearTimeout(timer);
          this.waiters = this.waiters.filter((w) => w !== check);
          resolve(found);
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(new Error(`no such message within ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`));
      }, timeoutMs);
      if (!check()) this.waiters.push(check);
    });
  }

  /** Waits for a study event of `reportStatusId` (and `type`, if given). */
  waitForStudy(reportStatusId: number, type?: string, timeoutMs?: number) {
    return this.waitFor((m) => {
      if (m.event !== 'study') return false;
      const data = JSON.parse(m.data) as { reportStatusId: number; type: string };
      return data.reportStatusId === reportStatusId && (type === undefined || data.type === type);
    }, timeoutMs);
  }

  /** Resolves when the server ended the stream. */
  waitForEnd(timeoutMs = 5_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!this.ended) return false;
        clearTimeout(timer);
        resolve();
        return true;
      };
      const timer = setTimeout(() => reject(new Error('the stream did not end')), timeoutMs);
      if (!check()) this.waiters.push(check);
    });
  }

  close(): void {
    this.request.destroy();
  }

  private take(chunk: string) {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const message: TSseMessage = { event: 'message', id: null, data: '' };
      let hasData = false;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') message.event = value;
        else if (field === 'id') message.id = value;
        else if (field === 'data') {
          message.data += (hasData ? '\n' : '') + value;
          hasData = true;
        }
      }
      if (message.id !== null) this.lastEventId = message.id;
      if (hasData) this.messages.push(message);
    }
    for (const waiter of [...this.waiters]) waiter();
  }

  private end() {
    this.ended = true;
    for (const waiter of [...this.waiters]) waiter();
  }
}

/** An app listening on a port of 127.0.0.1 (streams need a socket). */
export async function listeningApp(
  handle: DbHandle,
  opts: Partial<Omit<BuildAppOptions, 'db' | 'blobs'>> = {},
): Promise<{ app: FastifyInstance; baseUrl: string; close(): Promise<void> }> {
  const blobRoot = await mkdtemp(path.join(tmpdir(), 'radflow-live-blobs-'));
  const blobs = await new FsBlobStore(blobRoot).init();
  const app = await buildApp({ logger: false, maxBusyMs: 0, ...opts, db: handle.db, blobs });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    baseUrl: address,
    async close() {
      await app.close();
      await blobs.close();
      await rm(blobRoot, { recursive: true, force: true });
    },
  };
}

/**
 * A migrated database that outlives the handles opened on it: a server restart (close one app
 * and its handle, open another on the same database), or two servers on one PostgreSQL. On PGlite,
 * a data directory (one handle at a time: one process's database); on PostgreSQL (DATABASE_URL),
 * a database made from the test template, as many handles (pools) as asked.
 */
export async function durableTestDatabase(): Promise<{
  kind: 'pglite' | 'postgres';
  open(): Promise<DbHandle>;
  drop(): Promise<void>;
}> {
  const postgresUrl = inject('postgresUrl');
  if (postgresUrl) {
    const name = `radflow_live_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`);
    await admin.end();
    return {
      kind: 'postgres',
      open: () => openPostgres(withDatabase(postgresUrl, name), { max: 4 }),
      async drop() {
        const cleanup = new pg.Client({ connectionString: postgresUrl });
        await cleanup.connect();
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await cleanup.end();
      },
    };
  }
  const root = await mkdtemp(path.join(tmpdir(), 'radflow-live-db-'));
  const dataDir = path.join(root, 'db');
  await writeMigratedDataDir(dataDir);
  return {
    kind: 'pglite',
    open: () => openPglite({ dataDir }),
    drop: () => rm(root, { recursive: true, force: true }),
  };
}
