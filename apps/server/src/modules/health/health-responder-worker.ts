import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import {
  BEAT_DATABASE,
  BEAT_EVENT_LOOP,
  type HealthResponderAnswer,
  type HealthResponderData,
  type HealthResponderMessage,
} from './health-responder.js';

/**
 * The health responder's thread (health-responder.ts): its own HTTP listener, which answers from
 * the main thread's beats in shared memory and never waits for the main thread.
 */
const { beats: shared, host, port, maxStallMs } = workerData as HealthResponderData;
const beats = new BigInt64Array(shared);
const post = (message: HealthResponderMessage) => parentPort?.postMessage(message);

/** Milliseconds since the epoch on a monotonic clock, comparable across threads. */
const nowMs = () => performance.timeOrigin + performance.now();

function answer(): { code: 200 | 503; body: HealthResponderAnswer } {
  const now = nowMs();
  const eventLoopMs = Math.max(0, Math.round(now - Number(Atomics.load(beats, BEAT_EVENT_LOOP))));
  const databaseAt = Number(Atomics.load(beats, BEAT_DATABASE));
  const databaseMs = databaseAt === 0 ? null : Math.max(0, Math.round(now - databaseAt));
  const reason =
    eventLoopMs > maxStallMs
      ? ('event loop' as const)
      : databaseMs === null || databaseMs > maxStallMs
        ? ('database' as const)
        : null;
  return reason
    ? { code: 503, body: { status: 'stalled', reason, eventLoopMs, databaseMs } }
    : { code: 200, body: { status: 'ok', eventLoopMs, databaseMs } };
}

function respond(request: IncomingMessage, response: ServerResponse) {
  const path = (request.url ?? '/').split('?')[0];
  const headers = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
  if (path !== '/health' && path !== '/api/health') {
    response.writeHead(404, headers).end(JSON.stringify({ status: 'not found', path: '/health' }));
    return;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { ...headers, allow: 'GET, HEAD' }).end();
    return;
  }
  const { code, body } = answer();
  const text = JSON.stringify(body);
  response.writeHead(code, headers);
  response.end(request.method === 'HEAD' ? undefined : text);
}

const server = createServer(respond);
server.once('error', (error: NodeJS.ErrnoException) =>
  post({ error: `health responder on ${host}:${port}: ${error.code ?? error.message}` }),
);
server.listen(port, host, () => {
  const address = server.address();
  post({ listening: typeof address === 'object' && address ? address.port : port });
});
