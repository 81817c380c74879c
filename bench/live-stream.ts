/**
 * Live stream fan-out (issue 23 §6): the built server (PGlite, or PostgreSQL with --database-url,
 * a fresh database made on it) with N concurrent SSE streams (GET /api/live) held by this process,
 * spread over four demo users (admin, assignor: group-wide; center, doctor: scopes asked by the
 * access rule; the doctor gets the unassignment as the doctor it was taken from). The typist is
 * left out: an unassignment takes the row out of its view (modules/live/README.md, known limits). The admin then assigns and unassigns one study of the center K times,
 * one change at a time; for each change, the time from just before its POST to each stream's
 * arrival of the event (all streams may see the row), and for one stream the time until the list
 * call the web makes on that event (POST /api/dicom-web/studies/) has answered: "a change shown in
 * another open list", without the browser's render. Also the server's RSS (VmRSS) before the
 * streams, with them open, and after the changes. The client shares the machine (and its two
 * cores) with the server: its own parsing of N streams is in the figures.
 *
 * Usage: npm run build -w @radflow/server && npx tsx bench/live-stream.ts [--streams 2000]
 *        [--changes 40] [--database-url postgres://…/postgres] [--json]
 */
import http from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { BENCH_DEVICE_HEADERS, signIn, startBuiltServer } from './lib/radflow-server.js';
import { summary } from './lib/stats.js';

const args = process.argv.slice(2);
const value = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const STREAMS = Number(value('--streams') ?? 2_000);
const CHANGES = Number(value('--changes') ?? 40);
const adminUrl = value('--database-url');
const asJson = args.includes('--json');
const log = (line: string) => process.stderr.write(`${line}\n`);
const USERS = ['admin@demo.local', 'assignor@demo.local', 'center@demo.local', 'doctor@demo.local'];

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** Asks again after a 503 (load shedding: busy server), as the web and EventSource do. */
async function retrying<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= 50 || !String(error).includes('503')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** One stream: calls `onEvent(reportStatusId, at)` for each study event. */
function openStream(
  baseUrl: string,
  cookie: string,
  agent: http.Agent,
  onEvent: (reportStatusId: number, at: number) => void,
): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${baseUrl}/api/live`, {
      agent,
      headers: { cookie, accept: 'text/event-stream' },
    });
    request.once('error', reject);
    request.once('response', (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`GET /api/live: ${response.statusCode}`));
        return;
      }
      response.setEncoding('utf8');
      let buffer = '';
      let ready = false;
      response.on('data', (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.includes('event: ready') && !ready) {
            ready = true;
            resolve(request);
          }
          const data = /event: study\ndata: (.*)/.exec(block)?.[1];
          if (data) onEvent((JSON.parse(data) as { reportStatusId: number }).reportStatusId, at);
        }
      });
    });
  });
}

async function api(baseUrl: string, cookie: string, path: string, body?: unknown) {
  const res = await fetch(`${baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { cookie, 'content-type': 'application/json', ...BENCH_DEVICE_HEADERS },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<unknown>;
}

async function run(databaseUrl: string | undefined) {
  const work = await mkdtemp(join(tmpdir(), 'radflow-live-bench-'));
  const server = await startBuiltServer({
    work,
    ...(databaseUrl ? { databaseUrl } : {}),
    env: { LIVE_MAX_STREAMS_PER_USER: String(STREAMS), LOG_LEVEL: 'warn' },
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const streams: http.ClientRequest[] = [];
  try {
    const pid = server.process.pid!;
    const cookies = new Map<string, string>();
    for (const user of USERS) cookies.set(user, await retrying(() => signIn(server.baseUrl, user)));
    const admin = cookies.get('admin@demo.local')!;
    const center = cookies.get('center@demo.local')!;
    const [own] = (await retrying(() => api(server.baseUrl, center, '/api/centers'))) as Array<{
      id: number;
    }>;
    const created = (await retrying(() =>
      api(server.baseUrl, center, '/api/dicom-web/study/create-from-website', {
        patientName: 'LIVE^BENCH',
        labModality: 'CT',
        patientAge: '40Y',
        patientSex: 'M',
        center: own!.id,
        studyName: 'CT Brain Plain',
        history: 'bench',
      }),
    )) as { id: number };
    const rowId = created.id;
    const rssBefore = await rssMb(pid);

    // Arrival times of the current change, per stream.
    let arrivals: number[] = [];
    let listener: ((at: number) => void) | null = null;
    const openStarted = performance.now();
    for (let i = 0; i < STREAMS; i += 50) {
      const batch = Array.from({ length: Math.min(50, STREAMS - i) }, (_, j) =>
        retrying(() =>
          openStream(server.baseUrl, cookies.get(USERS[(i + j) % USERS.length]!)!, agent, (id, at) => {
            if (id !== rowId) return;
            arrivals.push(at);
            if (i + j === 0) listener?.(at);
          }),
        ),
      );
      streams.push(...(await Promise.all(batch)));
    }
    const openSeconds = (performance.now() - openStarted) / 1000;
    const rssOpen = await rssMb(pid);
    log(`${STREAMS} streams open in ${openSeconds.toFixed(1)} s; RSS ${rssBefore} → ${rssOpen} MB`);

    const fanOutAll: number[] = [];
    const perStream: number[] = [];
    const shownInList: number[] = [];
    let missing = 0;
    // The list calls that failed (a 503 of load shedding is one: the web asks again).
    const listFailures: string[] = [];
    for (let k = 0; k < CHANGES; k++) {
      arrivals = [];
      // The first stream's tab refetches its list when the event arrives (the web's invalidation).
      const listed = new Promise<number>((resolve) => {
        listener = (at) => {
          listener = null;
          void api(server.baseUrl, cookies.get(USERS[0]!)!, '/api/dicom-web/studies/', {
            page: 0,
            size: 25,
          }).then(
            () => resolve(performance.now()),
            (error: unknown) => {
              listFailures.push(String(error).slice(0, 160));
              resolve(NaN);
            },
          );
          void at;
        };
      });
      const started = performance.now();
      await retrying(() =>
        api(server.baseUrl, admin, '/api/report-status/assign', {
          reportId: rowId,
          assignedTo: k % 2 === 0 ? 'doctor@demo.local' : '',
        }),
      );
      const deadline = started + 10_000;
      while (arrivals.length < STREAMS && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      missing += STREAMS - arrivals.length;
      const times = arrivals.map((at) => at - started);
      perStream.push(...times);
      if (arrivals.length === STREAMS) fanOutAll.push(Math.max(...times));
      const listAt = await Promise.race([
        listed,
        new Promise<number>((r) => setTimeout(() => r(NaN), 10_000)),
      ]);
      if (!Number.isNaN(listAt)) shownInList.push(listAt - started);
      // Let the server settle between changes (one change at a time).
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const rssAfter = await rssMb(pid);
    return {
      database: databaseUrl ? 'postgres' : 'pglite',
      streams: STREAMS,
      changes: CHANGES,
      streamsOpenSeconds: Math.round(openSeconds * 10) / 10,
      load1minAtEnd: Math.round(loadavg()[0]! * 100) / 100,
      fanOutToAllMs: summary(fanOutAll),
      perStreamDeliveryMs: summary(perStream),
      changeToListAnsweredMs: summary(shownInList),
      eventsMissing: missing,
      listFailures,
      rssMb: {
        before: rssBefore,
        streamsOpen: rssOpen,
        afterChanges: rssAfter,
        growth: rssAfter - rssBefore,
      },
    };
  } finally {
    for (const stream of streams) stream.destroy();
    agent.destroy();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
}

async function freshDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `radflow_live_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

const fresh = adminUrl ? await freshDatabase(adminUrl) : null;
try {
  const result = {
    date: new Date().toISOString(),
    load1minAtStart: loadavg()[0],
    ...(await run(fresh?.url)),
  };
  if (asJson) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else log(JSON.stringify(result, null, 2));
} finally {
  await fresh?.drop();
}
