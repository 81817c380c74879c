/**
 * How many ingests this process has under way (ingest.ts counts them). A lone ingest takes the
 * shortcuts that would hold the others up: it prepares its instance on this thread without a hop
 * to an ingest worker, the C-STORE SCP hashes its bytes as they arrive, and its index batch syncs
 * PGlite's WAL on this thread (index-writer.ts, db/instance-index-pglite.ts).
 */
let underWay = 0;

export const ingestsInFlight = {
  enter(): void {
    underWay++;
  },
  leave(): void {
    underWay--;
  },
  get count(): number {
    return underWay;
  },
};
