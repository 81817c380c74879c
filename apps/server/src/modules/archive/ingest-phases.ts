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

const REPORT_EVERY = 500;

export type IngestPhase =
  | 'receive'
  | 'read'
  | 'parse'
  | 'sha256'
  | 'metadataJson'
  | 'blobWrite'
  | 'blobDurableWait'
  | 'indexStatements'
  | 'commit'
  | 'walSync'
  | 'total'
  | 'answerToNextRequest';

class PhaseClock {
  private sums = new Map<IngestPhase, number>();
  private counts = new Map<IngestPhase, number>();
  private instances = 0;

  add(phase: IngestPhase, ms: number, times = 1): void {
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
    process.stderr.write(`${JSON.stringify({ ingestPhases: means, instances: this.instances })}\n`);
    this.sums = new Map();
    this.counts = new Map();
  }
}

export const phaseClock: PhaseClock | undefined =
  process.env.RADFLOW_INGEST_PHASES === '1' ? new PhaseClock() : undefined;
