/**
 * The SCP's TCP port (store-scp.ts): connection caps over all addresses and per address, the
 * refusal of one over a cap, and listening.
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { DimseLogger } from './library.js';

/**
 * The port's limits when the caller sets none (the server's come from its configuration). Each
 * accepted association may hold an instance of up to 16 MB in memory: the global cap bounds that.
 */
export const DEFAULT_PORT_LIMITS = {
  maxConnections: 256,
  maxConnectionsPerAddress: 16,
  associationRequestTimeoutMs: 10_000,
  idleTimeoutMs: 60_000,
} as const;

/** A-ASSOCIATE-RJ transient, service provider (presentation), local limit exceeded (PS3.8 §9.3.4). */
const LOCAL_LIMIT_REJECT = Buffer.from([0x03, 0, 0, 0, 0, 4, 0, 2, 3, 2]);

/**
 * The key a connection is counted under: its IPv4 address, or the /64 prefix of an IPv6 one (a
 * single host usually holds a whole /64, so counting /128s would cap nothing).
 */
export function addressKeyOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group || '0', 16).toString(16))
    .join(':')}::/64`;
}

export interface PortSettings {
  readonly host: string;
  readonly port: number;
  readonly maxConnections: number;
  readonly maxPerAddress: number;
  readonly log: DimseLogger | undefined;
}

/**
 * Listens; each connection within the caps gets Nagle off and is handed to `connected` (an
 * exception there is logged and closes the socket). Resolves with the server, its port and the
 * open sockets.
 */
export async function listenPort(
  settings: PortSettings,
  connected: (socket: Socket) => void,
): Promise<{ server: Server; port: number; sockets: ReadonlySet<Socket> }> {
  const { host, maxConnections, maxPerAddress, log } = settings;
  const sockets = new Set<Socket>();
  /** Open connections per address key ({@link addressKeyOf}). */
  const perAddress = new Map<string, number>();
  /** When a refusal was last logged per address key: a flood of connections logs once a minute. */
  const refusalLogged = new Map<string, number>();

  /** Over a cap: an A-ASSOCIATE-RJ (transient, local limit exceeded) before any request, then closed. */
  const refuse = (socket: Socket, key: string, reason: string) => {
    const now = Date.now();
    if ((refusalLogged.get(key) ?? 0) < now - 60_000) {
      if (refusalLogged.size > 1000) refusalLogged.clear();
      refusalLogged.set(key, now);
      log?.warn?.({ remoteAddress: socket.remoteAddress, reason }, 'DIMSE connection refused');
    }
    socket.on('error', () => undefined);
    socket.end(LOCAL_LIMIT_REJECT, () => socket.destroy());
    setTimeout(() => socket.destroy(), 1000).unref();
  };

  const server = createServer((socket) => {
    const key = addressKeyOf(socket.remoteAddress ?? '');
    const fromAddress = perAddress.get(key) ?? 0;
    if (fromAddress >= maxPerAddress) return refuse(socket, key, 'too many connections from this address');
    if (sockets.size >= maxConnections) return refuse(socket, key, 'too many connections');
    socket.setNoDelay(true);
    sockets.add(socket);
    perAddress.set(key, fromAddress + 1);
    socket.once('close', () => {
      sockets.delete(socket);
      const left = (perAddress.get(key) ?? 1) - 1;
      if (left > 0) perAddress.set(key, left);
      else perAddress.delete(key);
    });
    try {
      connected(socket);
    } catch (error) {
      log?.error?.({ err: error }, 'DIMSE connection setup failed');
      socket.destroy();
    }
  });
  server.on('error', (error) => log?.error?.({ err: error }, 'DIMSE server error'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port, sockets };
}
