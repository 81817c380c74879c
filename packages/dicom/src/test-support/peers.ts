/**
 * Real DICOM peers for tests and benchmarks (ARCHITECTURE §4): DCMTK storescp and Orthanc with its
 * own JSON config, on 127.0.0.1, with TCP_NODELAY=1, each in a temp dir removed on stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { peerEnvironment } from './dcmtk.js';

export const ORTHANC_EXECUTABLE = '/usr/sbin/Orthanc';
export const ORTHANC_DICOMWEB_PLUGIN = '/usr/share/orthanc/plugins/libOrthancDicomWeb.so';

/*
 * Ports for peers we start are drawn below Linux's ephemeral range (32768–60999). A port the kernel
 * hands out for `listen(0)` comes from that range, and so does the local port of every outgoing
 * connection the other test processes make: between our closing the probe and the peer binding it,
 * one of those connections could take it (CI saw Orthanc exit with "already in use").
 */
const PEER_PORT_LOW = 20_000;
const PEER_PORT_HIGH = 32_767;

function canListen(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port free right now on 127.0.0.1, outside the ephemeral range. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = PEER_PORT_LOW + Math.floor(Math.random() * (PEER_PORT_HIGH - PEER_PORT_LOW + 1));
    if (await canListen(port)) return port;
  }
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether a peer's output says it could not bind its port (another process took it first). */
export function lostPortRace(output: string): boolean {
  return /already in use|address in use|EADDRINUSE/i.test(output);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until something accepts TCP connections on host:port. */
export async function waitForPort(port: number, host = '127.0.0.1', timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect({ port, host });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await sleep(50);
  }
  throw new Error(`Nothing listens on ${host}:${port} after ${timeoutMs} ms`);
}

/** Stops a child process: SIGTERM, then SIGKILL after `graceMs`; resolves when it exited. */
export async function stopProcess(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

function collectOutput(child: ChildProcess): () => string {
  let output = '';
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return () => output;
}

export interface RunningPeer {
  readonly port: number;
  readonly aeTitle: string;
  readonly process: ChildProcess;
  /** Its temp dir (storescp: where received files go). */
  readonly dir: string;
  /** The peer's recent output (for failure messages). */
  readonly output: () => string;
  stop(): Promise<void>;
}

/** A peer exited because its port was taken between our probe and its bind; try new ports. */
class PortRaceError extends Error {}

/** DCMTK storescp accepting every syntax it knows (`+xa`), writing to a temp dir. */
export async function startStorescp(
  options: { aeTitle?: string; extraArgs?: readonly string[] } = {},
): Promise<RunningPeer> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startStorescpOnce(options);
    } catch (error) {
      if (!(error instanceof PortRaceError) || attempt >= 5) throw error;
    }
  }
}

async function startStorescpOnce(options: {
  aeTitle?: string;
  extraArgs?: readonly string[];
}): Promise<RunningPeer> {
  const aeTitle = options.aeTitle ?? 'STORESCP';
  const dir = await mkdtemp(join(tmpdir(), 'radflow-storescp-'));
  const port = await freePort();
  const child = spawn(
    'storescp',
    ['--aetitle', aeTitle, '-od', dir, '+xa', ...(options.extraArgs ?? []), String(port)],
    {
      env: peerEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output = collectOutput(child);
  const stop = async () => {
    await stopProcess(child);
    await rm(dir, { recursive: true, force: true });
  };
  const exitedEarly = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`storescp exited (${code})`))),
  );
  exitedEarly.catch(() => undefined);
  try {
    await Promise.race([waitForPort(port), exitedEarly]);
  } catch (error) {
    const text = output();
    await stop();
    const message = `storescp did not start: ${text}`;
    throw lostPortRace(text) ? new PortRaceError(message) : new Error(message, { cause: error });
  }
  return { port, aeTitle, process: child, dir, output, stop };
}

export interface OrthancPeer extends RunningPeer {
  readonly httpPort: number;
  readonly baseUrl: string;
  /** GET on Orthanc's REST API, parsed JSON. */
  get<T = unknown>(path: string): Promise<T>;
}

export interface StartOrthancOptions {
  readonly aeTitle?: string;
  /** Known modalities: name → [AE title, host, port]. */
  readonly modalities?: Record<string, readonly [string, string, number]>;
  /** Reject associations whose called AE title is not Orthanc's (DicomCheckCalledAet). */
  readonly checkCalledAet?: boolean;
  /** Extra configuration merged over the defaults. */
  readonly config?: Record<string, unknown>;
  readonly startTimeoutMs?: number;
}

/**
 * Orthanc (Debian package, 1.10) with its own config on 127.0.0.1: DICOM and HTTP on free ports,
 * RemoteAccessAllowed false, storage and index in a temp dir, the DICOMweb plugin loaded.
 */
export async function startOrthanc(options: StartOrthancOptions = {}): Promise<OrthancPeer> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOrthancOnce(options);
    } catch (error) {
      if (!(error instanceof PortRaceError) || attempt >= 5) throw error;
    }
  }
}

async function startOrthancOnce(options: StartOrthancOptions): Promise<OrthancPeer> {
  const aeTitle = options.aeTitle ?? 'ORTHANC';
  const dir = await mkdtemp(join(tmpdir(), 'radflow-orthanc-'));
  const port = await freePort();
  let httpPort = await freePort();
  while (httpPort === port) httpPort = await freePort();
  const config = {
    Name: 'radflow-test',
    StorageDirectory: join(dir, 'storage'),
    IndexDirectory: join(dir, 'index'),
    DicomAet: aeTitle,
    DicomPort: port,
    HttpPort: httpPort,
    RemoteAccessAllowed: false,
    AuthenticationEnabled: false,
    HttpServerEnabled: true,
    DicomServerEnabled: true,
    DicomCheckCalledAet: options.checkCalledAet ?? false,
    DicomModalities: options.modalities ?? {},
    Plugins: [ORTHANC_DICOMWEB_PLUGIN],
    DicomWeb: { Enable: true, Root: '/dicom-web/' },
    ...options.config,
  };
  const configPath = join(dir, 'orthanc.json');
  await writeFile(configPath, JSON.stringify(config, null, 2));
  const child = spawn(ORTHANC_EXECUTABLE, [configPath], {
    env: peerEnvironment(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collectOutput(child);
  const baseUrl = `http://127.0.0.1:${httpPort}`;
  const stop = async () => {
    await stopProcess(child, 10_000);
    await rm(dir, { recursive: true, force: true });
  };
  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}`);
    if (!response.ok) throw new Error(`Orthanc GET ${path}: ${response.status}`);
    return (await response.json()) as T;
  };
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      const message = `Orthanc exited (${child.exitCode}): ${output()}`;
      throw lostPortRace(output()) ? new PortRaceError(message) : new Error(message);
    }
    try {
      await get('/system');
      await waitForPort(port);
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`Orthanc did not start: ${output()}`);
      }
      await sleep(100);
    }
  }
  return { port, aeTitle, process: child, dir, output, stop, httpPort, baseUrl, get };
}
