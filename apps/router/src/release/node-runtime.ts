/**
 * How Node runs the router: the launcher starts every version with these flags (launcher-main.ts),
 * and bench/router-upload.ts starts the router the same way to measure what a center runs.
 *
 * `--max-semi-space-size=1` (MB; Node 20's default grows it to 16): the router moves images, and
 * every socket read and spool file is a buffer outside V8's heap that is freed only when the young
 * generation is collected. With the default, tens of megabytes of dead buffers waited for that
 * collection while a study arrived, and the router's RSS passed its 150 MB budget (issue 27 §6):
 * 155 MB with the default, 118 MB with 1 MB, at the same upload rate (bench/results).
 */
export const ROUTER_NODE_ARGS: readonly string[] = ['--max-semi-space-size=1'];
