import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SMTPServer } from 'smtp-server';
import type { TestProject } from 'vitest/node';

const repoRoot = resolve(import.meta.dirname, '../..');

/** One story server: the built product on its own data dir and ports, with its own SMTP server. */
export interface TStoryServer {
  baseURL: string;
  outboxFile: string;
  /** Where the test SMTP server writes each e-mail it accepts (one .eml file each). */
  mailDir: string;
  /** The server's DICOM port (its AE title is the default, RADFLOW), for storescu stories. */
  dicomPort: number;
  /** Where openSignedIn keeps each demo user's session for the files after the first. */
  sessionsDir: string;
  /** The server's test clock (TEST_CLOCK_FILE): milliseconds it runs ahead (support/clock.ts). */
  clockFile: string;
  /** The server's TRAINING_VIDEOS_DIR: a story records a training video into it (faq.test.ts). */
  trainingVideosDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** One server per worker (support/server.ts picks the worker's). */
    storyServers: TStoryServer[];
  }
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => res(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become healthy within ${timeoutMs} ms`);
}

/**
 * A real SMTP server for the stories (smtp-server, in this process on 127.0.0.1): every accepted
 * message is written whole to `mailDir` as `<n>.eml`, for the stories to read.
 */
async function startSmtpServer(mailDir: string): Promise<{ url: string; close: () => Promise<void> }> {
  mkdirSync(mailDir, { recursive: true });
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received += 1;
        writeFileSync(join(mailDir, `${received}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}?from=reports@radflow.test`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/**
 * Starts the built server on a fresh data dir (PGlite, demo seed) for the browser stories; the
 * training-video recorder (e2e/training-videos) films the same server.
 */
export async function startStoryServer(
  bundle: string,
  webDist: string,
): Promise<{ server: TStoryServer; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'radflow-e2e-'));
  const outboxFile = join(dataDir, 'outbox.jsonl');
  const clockFile = join(dataDir, 'clock');
  const mailDir = join(dataDir, 'mail');
  const sessionsDir = mkdtempSync(join(tmpdir(), 'radflow-e2e-sessions-'));
  const trainingVideosDir = join(dataDir, 'training-videos');
  const smtp = await startSmtpServer(mailDir);
  const [port, dicomPort] = [await freePort(), await freePort()];
  const baseURL = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [bundle], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DICOM_PORT: String(dicomPort),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      OUTBOX_MIRROR_FILE: outboxFile,
      PUBLIC_URL: baseURL,
      SMTP_URL: smtp.url,
      WEB_DIST_DIR: webDist,
      TRAINING_VIDEOS_DIR: trainingVideosDir,
      // The viewer-payment story pays through the default provider's simulated gateway.
      PAYMENT_TEST_GATEWAY: 'true',
      // Load shedding (plugins/load-shedding.ts, its own integration tests) answers 503 once the
      // event loop has been busy 100 ms: on 2 cores running two workers and their browsers (and a
      // machine shared with others, load 30) it shed the stories' own calls and frames. A ceiling
      // here, so the stories see the app's behaviour, not the machine's.
      API_MAX_BUSY_MS: '2000',
      // The stories' test clock (support/clock.ts) and an escalation sweep that follows it promptly.
      TEST_CLOCK_FILE: clockFile,
      CRITICAL_ESCALATION_SWEEP_SECONDS: '2',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise<void>((res) => {
      if (child.exitCode !== null) return res();
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        res();
      }, 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        res();
      });
    });
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(sessionsDir, { recursive: true, force: true });
  };
  try {
    // A ceiling, not a wait: on a busy 2-core machine (load 20) the bundle took over 60 s to answer.
    await waitForHealth(baseURL, child, 180_000);
  } catch (error) {
    // A server that never became healthy must not outlive the run (it holds ports and its data dir).
    await stop();
    throw error;
  }
  return {
    server: { baseURL, outboxFile, mailDir, dicomPort, sessionsDir, clockFile, trainingVideosDir },
    stop,
  };
}

/**
 * One server per worker (the project's maxWorkers), started side by side: files that run at the
 * same time never share a server (the stories change the demo group's settings and data), and the
 * workers take the next file when they are free, so the run balances itself.
 */
export default async function setup(project: TestProject) {
  // Another build may be tried without touching the shared dist folders (E2E_SERVER_BUNDLE: a
  // server bundle one level below apps/server; E2E_WEB_DIST: a web build's folder).
  const bundle = resolve(process.env.E2E_SERVER_BUNDLE || join(repoRoot, 'apps/server/dist/main.js'));
  const webDist = resolve(process.env.E2E_WEB_DIST || join(repoRoot, 'apps/web/dist'));
  const webIndex = join(webDist, 'index.html');
  if (!existsSync(bundle) || !existsSync(webIndex)) {
    throw new Error('Build first: `npm run build` (npm run test:e2e does it for you).');
  }
  const count = storyWorkers(project);
  const started = await Promise.allSettled(
    Array.from({ length: count }, () => startStoryServer(bundle, webDist)),
  );
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stopAll = async () => {
    await Promise.all(servers.map((s) => s.stop()));
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  project.provide(
    'storyServers',
    servers.map((s) => s.server),
  );
  return stopAll;
}

/**
 * The workers the stories run on, resolved as vitest resolves them: the project's maxWorkers, else
 * the run's (the root config's 2), else the CPUs less one.
 */
function storyWorkers(project: TestProject): number {
  const configured = project.config.maxWorkers || project.vitest.config.maxWorkers;
  return typeof configured === 'number' && configured > 0
    ? configured
    : Math.max(availableParallelism() - 1, 1);
}
