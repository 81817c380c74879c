/**
 * Where an ingested instance's time goes, for the ingest benchmark (ARCHIVE.md "ingest phases"):
 * with `RADFLOW_INGEST_PHASES=1` in the server's environment, each step records its duration and
 * every 500 instances one JSON line `{"ingestPhases": {...}}` with the mean milliseconds per
 * instance of each phase goes to stderr (the server log). Off (the default), `phaseClock` is
 * undefined and nothing is measured.
 *
 * Phases are wall-clock on the server's main thread, except the waits (`blobDurableWait`,
 * `walSync`), which are the time the instance waited for the thread pool's syncs. A phase of a
 * batch (statements, commit, WAL sync) is counted once per instance of the batch.
 */

import { readFileSync } from 'node:fs';

const REPORT_EVERY = 500;

/**
 * CPU ms (user + system) of the main thread and of the whole process (all threads: ingest
 * workers, the thread pool), from /proc (Linux; null elsewhere). Node 20 has no per-thread CPU
 * clock, and on a busy machine wall-clock phases include the time the thread waited for a core.
 */
function cpuMs(): { main: number; process: number } | null {
  try {
    const ticks = (stat: string) => {
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    };
    return {
      main: ticks(readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')),
      process: ticks(readFileSync('/proc/self/stat', 'utf8')),
    };
  } catch {
    return null;
  }
}

export type IngestPhase =
  | 'receive'
  | 'read'
  | 'parse'
  | 'sha256'
  | 'metadataJson'
  /** sha256 and metadata JSON together, on the main thread (a lone ingest) */
  | 'digest'
  /** waiting for an ingest worker's parse, sha256 and JSON (read too, for a file) */
  | 'worker'
  | 'blobWrite'
  /** from the blob write's start until the blob is durable (its syncs run beside the next phases) */
  | 'blobDurable'
  | 'blobDurableWait'
  | 'indexStatements'
  | 'commit'
  | 'walSync'
  | 'total'
  /** instances per index transaction (a count, not ms; one sample per transaction) */
  | 'batchSize'
  | 'answerToNextRequest';

class PhaseClock {
  private sums = new Map<IngestPhase, number>();
  private counts = new Map<IngestPhase, number>();
  private instances = 0;
  /** Taken at the first phase recorded: server start-up (migrations, seed) is not ingest. */
  private cpuAtLastReport: ReturnType<typeof cpuMs> | undefined;

  add(phase: IngestPhase, ms: number, times = 1): void {
    if (this.cpuAtLastReport === undefined) this.cpuAtLastReport = cpuMs();
    this.sums.set(phase, (this.sums.get(phase) ?? 0) + ms * times);
    this.counts.set(phase, (this.counts.get(phase) ?? 0) + times);
  }

  /** One instance fully ingested: reports every REPORT_EVERY. */
  done(): void {
    this.instances++;
    if (this.instances % REPORT_EVERY !== 0) return;
    const means: Record<string, number> = {};
    for (const [phase, sum] of this.sums)
      means[phase] = Math.round((sum / (this.counts.get(phase) ?? 1)) * 1000) / 1000;
    // CPU since the last report, per instance: everything the process did meanwhile (QIDO polls too).
    const cpu = cpuMs();
    const last = this.cpuAtLastReport;
    if (cpu && last) {
      means.mainThreadCpu = Math.round(((cpu.main - last.main) / REPORT_EVERY) * 100) / 100;
      means.processCpu = Math.round(((cpu.process - last.process) / REPORT_EVERY) * 100) / 100;
    }
    this.cpuAtLastReport = cpu;
    // Where the memory is at report time (MB): V8's heap, buffers outside it, the whole process.
    const memory = process.memoryUsage();
    const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
    means.rssMb = mb(memory.rss);
    means.heapUsedMb = mb(memory.heapUsed);
    means.heapTotalMb = mb(memory.heapTotal);
    means.externalMb = mb(memory.external);
    process.stderr.write(`${JSON.stringify({ ingestPhases: means, instances: this.instances })}\n`);
    this.sums = new Map();
    this.counts = new Map();
  }
}

export const phaseClock: PhaseClock | undefined =
  process.env.RADFLOW_INGEST_PHASES === '1' ? new PhaseClock() : undefined;
