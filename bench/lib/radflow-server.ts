/**
 * The built Radflow server as a child process for the benchmarks (and the e2e stories): a temp
 * DATA_DIR, free ports on 127.0.0.1, PGlite unless a DATABASE_URL is given; plus the few client
 * calls the benchmarks share (sign in, bearer token, STOW-RS streamed from disk).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, createReadStream, openSync } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { sendRetryingWhenShed } from '@radflow/core';
import { freePort, stopProcess, waitForPort } from '@radflow/dicom/test-support';

/**
 * The device headers of spec-core §7, as the web app sends them: the server refuses a non-GET API
 * call without them unless it has an Authorization header (apps/server/src/plugins/request-origin.ts).
 */
export const BENCH_DEVICE_HEADERS = { 'x-device-id': 'radflow-bench', 'x-device-name': 'Radflow bench' };

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVER_DIR = join(REPO_ROOT, 'apps/server');
/** The demo accounts (`SEED_DEMO=true`) share this password. */
export const DEMO_PASSWORD = 'demo12345';

export interface TBuiltServer {
  readonly process: ChildProcess;
  readonly baseUrl: string;
  readonly dicomPort: number;
  readonly logFile: string;
  stop(): Promise<void>;
}

export interface TBuiltServerOptions {
  /** A working directory of the run; the data directory and the log go below it. */
  readonly work: string;
  /** A fresh, empty PostgreSQL database; PGlite under the data directory when absent. */
  readonly databaseUrl?: string;
  /** Another build of the server (one level below apps/server, like dist/, so migrations resolve). */
  readonly bundle?: string;
  readonly nodeArgs?: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly startTimeoutMs?: number;
}

/** Starts `apps/server/dist/main.js` (build it first) and resolves once HTTP and DICOM listen. */
export async function startBuiltServer(options: TBuiltServerOptions): Promise<TBuiltServer> {
  const bundle = options.bundle ? resolve(options.bundle) : join(SERVER_DIR, 'dist/main.js');
  await stat(bundle).catch(() => {
    throw new Error(`${bundle} is missing: run npm run build -w @radflow/server first`);
  });
  const dataDir = join(options.work, 'radflow-data');
  await mkdir(dataDir, { recursive: true });
  const port = await freePort();
  let dicomPort = await freePort();
  while (dicomPort === port) dicomPort = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = join(options.work, 'radflow.log');
  const logFd = openSync(logFile, 'a');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    DICOM_PORT: String(dicomPort),
    SEED_DEMO: 'true',
    ...options.env,
  };
  delete env.DATABASE_URL;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), bundle], {
    cwd: SERVER_DIR,
    env,
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  const stop = () => stopProcess(child, 20_000);
  try {
    const deadline = Date.now() + (options.startTimeoutMs ?? 300_000);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`Radflow server exited (${code})`))),
    );
    exited.catch(() => undefined);
    await Promise.race([
      (async () => {
        await waitForPort(port, '127.0.0.1', Math.max(1, deadline - Date.now()));
        await waitForPort(dicomPort, '127.0.0.1', Math.max(1, deadline - Date.now()));
      })(),
      exited,
    ]);
  } catch (error) {
    await stop();
    const log = await readFile(logFile, 'utf8').catch(() => '');
    throw new Error(`Radflow server did not start: ${log.slice(-3000)}`, { cause: error });
  }
  return { process: child, baseUrl, dicomPort, logFile, stop };
}

/** Signs in (`POST /api/do-login`) and answers the session cookie header. */
export async function signIn(baseUrl: string, email: string, password = DEMO_PASSWORD): Promise<string> {
  // Asked as the web client asks: a server busy just after its start sheds the call (503).
  const login = await sendRetryingWhenShed(
    () =>
      fetch(`${baseUrl}/api/do-login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...BENCH_DEVICE_HEADERS },
        body: JSON.stringify({ email, password }),
      }),
    (shed) => shed.body?.cancel(),
  );
  if (!login.ok) throw new Error(`sign-in ${email}: ${login.status} ${await login.text()}`);
  return login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** The user's API token (`GET /api/user/token`), for DICOMweb clients that send a bearer token. */
export async function bearerToken(baseUrl: string, email: string, password = DEMO_PASSWORD): Promise<string> {
  const cookie = await signIn(baseUrl, email, password);
  const token = await sendRetryingWhenShed(
    () => fetch(`${baseUrl}/api/user/token`, { headers: { cookie } }),
    (shed) => shed.body?.cancel(),
  );
  if (!token.ok) throw new Error(`GET /api/user/token: ${token.status} ${await token.text()}`);
  return ((await token.json()) as { token: string }).token;
}

type DicomJson = Record<string, { vr: string; Value?: unknown[] }>;

/**
 * POSTs `files` as one `multipart/related; type="application/dicom"` body streamed from disk with
 * its Content-Length; resolves to the number stored, throws unless all were.
 */
export async function stowFiles(
  url: string,
  files: readonly string[],
  headers: Record<string, string> = {},
): Promise<number> {
  const boundary = `radflow-bench-${crypto.randomUUID()}`;
  const partHead = (first: boolean) =>
    Buffer.from(`${first ? '' : '\r\n'}--${boundary}\r\nContent-Type: application/dicom\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const sizes = await Promise.all(files.map(async (file) => (await stat(file)).size));
  const contentLength =
    sizes.reduce((sum, size, i) => sum + size + partHead(i === 0).length, 0) + tail.length;
  async function* body(): AsyncGenerator<Buffer> {
    for (const [i, file] of files.entries()) {
      yield partHead(i === 0);
      for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) yield chunk as Buffer;
    }
    yield tail;
  }
  const { status, text } = await new Promise<{ status: number; text: string }>((done, fail) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: {
        ...BENCH_DEVICE_HEADERS,
        ...headers,
        'content-type': `multipart/related; type="application/dicom"; boundary=${boundary}`,
        'content-length': String(contentLength),
        accept: 'application/dicom+json',
      },
    });
    req.once('error', fail);
    req.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('end', () =>
        done({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      response.once('error', fail);
    });
    pipeline(Readable.from(body()), req).catch(fail);
  });
  if (status !== 200) throw new Error(`STOW ${url}: ${status} ${text.slice(0, 500)}`);
  const answer = JSON.parse(text) as DicomJson;
  const stored = answer['00081199']?.Value?.length ?? 0;
  const failed = answer['00081198']?.Value?.length ?? 0;
  if (failed > 0 || stored !== files.length)
    throw new Error(`STOW ${url}: ${stored} stored, ${failed} failed of ${files.length}`);
  return stored;
}
