/**
 * A fault-injecting TCP proxy for the router's tests and bench (issue 27 §6): between the router
 * and the cloud, it caps the bandwidth (each direction is one link, shared by every connection, as a
 * modem's is), adds latency, and cuts the link — every open connection reset and new ones refused
 * (accepted then reset) for a while — as a center's bad line does.
 */
import net from 'node:net';
import { TokenBucket } from '../src/upload/token-bucket.js';

export interface FaultProxyOptions {
  readonly targetHost: string;
  readonly targetPort: number;
  /** Bytes per second in each direction (0: no cap). */
  readonly bytesPerSecond?: number;
  /** One-way delay added to every chunk, in ms. */
  readonly latencyMs?: number;
}

export interface FaultProxy {
  readonly port: number;
  readonly stats: { bytesUp: number; bytesDown: number; connections: number; refused: number; cuts: number };
  /** Resets every connection and refuses new ones for `ms`; resolves when the link is back. */
  cut(ms: number): Promise<void>;
  /** Whether the link is cut right now. */
  isCut(): boolean;
  close(): Promise<void>;
}

const PIECE = 16 * 1024;

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const rate = options.bytesPerSecond ?? 0;
  // Bursts of a few ms of the rate: a link's buffer, not a quarter second of it.
  const burst = Math.max(PIECE, Math.round(rate / 50));
  const up = new TokenBucket(rate, undefined, burst);
  const down = new TokenBucket(rate, undefined, burst);
  const latency = options.latencyMs ?? 0;
  const sockets = new Set<net.Socket>();
  const stats = { bytesUp: 0, bytesDown: 0, connections: 0, refused: 0, cuts: 0 };
  let cutUntil = 0;

  /** Forwards `from` to `to` through the link's bucket and delay; the end follows the last byte. */
  const pump = (from: net.Socket, to: net.Socket, bucket: TokenBucket, count: (n: number) => void) => {
    from.on('data', (chunk: Buffer) => {
      from.pause();
      void (async () => {
        for (let at = 0; at < chunk.length; at += PIECE) {
          const piece = chunk.subarray(at, Math.min(chunk.length, at + PIECE));
          await bucket.take(piece.length);
          if (to.destroyed) return;
          count(piece.length);
          if (latency > 0) setTimeout(() => to.destroyed || to.write(piece), latency);
          else to.write(piece);
        }
        from.resume();
      })();
    });
    from.on('end', () => {
      // After the pieces still on their way (their timers were set before this one).
      const finish = () => (to.destroyed ? undefined : to.end());
      if (latency > 0) setTimeout(finish, latency);
      else setImmediate(finish);
    });
  };

  const server = net.createServer((client) => {
    if (Date.now() < cutUntil) {
      stats.refused++;
      client.resetAndDestroy();
      return;
    }
    stats.connections++;
    const upstream = net.connect({ host: options.targetHost, port: options.targetPort });
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    sockets.add(client);
    sockets.add(upstream);
    // An error on one side resets the other; a close only forgets the socket (an orderly end was
    // passed on by the pump, after the bytes before it).
    const fail = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', fail);
    upstream.on('error', fail);
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
    pump(client, upstream, up, (n) => (stats.bytesUp += n));
    pump(upstream, client, down, (n) => (stats.bytesDown += n));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    stats,
    isCut: () => Date.now() < cutUntil,
    async cut(ms: number) {
      stats.cuts++;
      cutUntil = Date.now() + ms;
      for (const socket of [...sockets]) socket.resetAndDestroy();
      sockets.clear();
      await new Promise((resolve) => setTimeout(resolve, ms));
    },
    async close() {
      for (const socket of [...sockets]) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
