import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Db } from '../../db/client.js';
import { PRESENCE_CHANNEL } from './presence-channel.js';

/** The channel migration 0026's trigger notifies on each statement that inserts study_events. */
export const STUDY_EVENTS_CHANNEL = 'radflow_study_events';

/**
 * Calls `onWake` when study_events may have new rows, and `onPresence` with each presence change's
 * payload (presence-channel.ts); stop() ends it.
 */
export interface TWakeup {
  stop(): Promise<void>;
}

/**
 * One mechanism on both databases: the trigger's NOTIFY. On PGlite it is delivered in-process to
 * the client's own `listen` (one database, one process: nothing to fan out). On PostgreSQL it is
 * LISTENed on a dedicated connection (not one of the pool's: a LISTEN lives as long as its
 * connection), re-opened with backoff when it drops; `onWake` is also called after each re-LISTEN,
 * as a NOTIFY sent meanwhile was lost (a presence change sent meanwhile is lost for good: the list
 * catches up at the next beat it reads, README "Presence").
 */
export async function listenForStudyEvents(
  db: Db,
  onWake: () => void,
  onError: (error: unknown) => void,
  onPresence: (payload: string) => void = () => undefined,
): Promise<TWakeup> {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (client instanceof PGlite) {
    const unlisten = await client.listen(STUDY_EVENTS_CHANNEL, () => onWake());
    const unlistenPresence = await client.listen(PRESENCE_CHANNEL, (payload) => onPresence(payload));
    return {
      stop: async () => {
        await unlisten().catch(() => undefined);
        await unlistenPresence().catch(() => undefined);
      },
    };
  }
  if (client instanceof pg.Pool) return listenOnPostgres(client.options, onWake, onError, onPresence);
  throw new Error('listenForStudyEvents: unknown database client');
}

async function listenOnPostgres(
  options: pg.PoolConfig,
  onWake: () => void,
  onError: (error: unknown) => void,
  onPresence: (payload: string) => void,
): Promise<TWakeup> {
  let stopped = false;
  let current: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let backoffMs = 250;

  const connect = async (): Promise<void> => {
    const client = new pg.Client({ ...options, application_name: 'radflow-live' });
    client.on('notification', (message) => {
      if (message.channel === PRESENCE_CHANNEL) onPresence(message.payload ?? '');
      else onWake();
    });
    client.on('error', (error) => {
      onError(error);
      reconnect(client);
    });
    client.on('end', () => reconnect(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${STUDY_EVENTS_CHANNEL}`);
      await client.query(`LISTEN ${PRESENCE_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    current = client;
    backoffMs = 250;
  };
  const reconnect = (client: pg.Client) => {
    if (stopped || current !== client) return;
    current = null;
    void client.end().catch(() => undefined);
    schedule();
  };
  const schedule = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = null;
      connect().then(onWake, (error: unknown) => {
        onError(error);
        backoffMs = Math.min(backoffMs * 2, 10_000);
        schedule();
      });
    }, backoffMs);
    retry.unref();
  };

  await connect();
  return {
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      const client = current;
      current = null;
      await client?.end().catch(() => undefined);
    },
  };
}
