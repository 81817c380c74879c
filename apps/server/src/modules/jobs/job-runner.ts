import { PGlite } from '@electric-sql/pglite';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { TJobName } from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';

/** Runs one queued run (a `jobs` row) to its end; records the outcome itself. */
export type TJobHandler = (ctx: AppContext, runId: number, log: FastifyBaseLogger) => Promise<void>;

/** pg-boss queue names are lower-case; one queue per job name. */
const queueOf = (jobName: TJobName) => `radflow-${jobName.toLowerCase().replace(/_/g, '-')}`;

/** A zip of a large study may take a while; a run that exceeds this counts as failed. */
const JOB_EXPIRE_SECONDS = 2 * 60 * 60;

/**
 * pg-boss's way into our database (ARCHITECTURE §3). On PGlite every statement goes through
 * PGlite's own query lock (`query` for one statement with parameters, `exec` for pg-boss's
 * multi-statement migrations), never through a pool adapter that could slip a job into another
 * request's transaction. On PostgreSQL it shares the app's pool.
 */
export function executeSqlOf(db: Db): PgBoss.Db {
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof pg.Pool) {
    return { executeSql: (text, values) => client.query(text, values) };
  }
  if (client instanceof PGlite) {
    return {
      async executeSql(text, values) {
        if (values?.length) return client.query(text, values);
        const results = await client.exec(text);
        return results[results.length - 1] ?? { rows: [] };
      },
    };
  }
  throw new Error('The job runner needs a PGlite or node-postgres database');
}

/**
 * The job queue (pg-boss 10) of one app. Sending works as soon as it is asked for (pg-boss is
 * started lazily); workers run only once `startWorkers()` is called, by main.ts in the server and by
 * the tests that want jobs to run. `stop()` waits for a running job to finish.
 */
export class JobRunner {
  private boss: Promise<PgBoss> | null = null;
  private workers = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly handlers: Record<TJobName, TJobHandler>,
    private readonly log: FastifyBaseLogger,
  ) {}

  private start(): Promise<PgBoss> {
    this.boss ??= (async () => {
      const boss = new PgBoss({
        db: executeSqlOf(this.ctx.db),
        schedule: false,
        expireInSeconds: JOB_EXPIRE_SECONDS,
        retryLimit: 0,
      });
      boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
      await boss.start();
      for (const jobName of Object.keys(this.handlers) as TJobName[]) {
        await boss.createQueue(queueOf(jobName), {
          name: queueOf(jobName),
          retryLimit: 0,
          expireInSeconds: JOB_EXPIRE_SECONDS,
        });
      }
      return boss;
    })();
    return this.boss;
  }

  /** Queues run `runId` of `jobName`; answers the queue's id for the run. */
  async enqueue(jobName: TJobName, runId: number): Promise<string> {
    const boss = await this.start();
    const id = await boss.send(queueOf(jobName), { runId });
    if (!id) throw new Error(`The job queue refused ${jobName} run ${runId}`);
    return id;
  }

  /**
   * The queue's state of a run ('created', 'active', 'completed', 'failed', 'cancelled', …), or
   * null when the queue no longer knows it. Used to notice a run whose worker died.
   */
  async queueState(jobName: TJobName, queueJobId: string): Promise<string | null> {
    const boss = await this.start();
    const job = await boss.getJobById(queueOf(jobName), queueJobId, { includeArchive: true });
    return job?.state ?? null;
  }

  /** Starts one worker per job name in this process. */
  async startWorkers(opts: { pollingIntervalSeconds?: number } = {}): Promise<void> {
    if (this.workers) return;
    this.workers = true;
    const boss = await this.start();
    for (const [jobName, handler] of Object.entries(this.handlers) as Array<[TJobName, TJobHandler]>) {
      await boss.work<{ runId: number }>(
        queueOf(jobName),
        { batchSize: 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1 },
        async ([job]) => {
          if (job) await handler(this.ctx, job.data.runId, this.log);
        },
      );
    }
  }

  async stop(): Promise<void> {
    if (!this.boss) return;
    const boss = await this.boss.catch(() => null);
    this.boss = null;
    this.workers = false;
    await boss?.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}
