import { bundledWebDir, loadRouterConfig } from './config.js';
import { startRouter } from './router.js';

const log = (message: string, fields?: Record<string, unknown>) =>
  console.warn(JSON.stringify({ time: new Date().toISOString(), message, ...fields }));

// The installed router serves the web app released with it (app/web beside main.js) unless told otherwise.
const config = loadRouterConfig(process.env, bundledWebDir(import.meta.url));
if (!config.ROUTER_API_TOKEN) log('ROUTER_API_TOKEN is empty: uploads will be refused by the cloud');
const router = await startRouter(config, log);
log('router started', {
  dicomPort: router.scp.port,
  localApi: router.api.url,
  localApiPort: router.api.port,
  aeTitle: config.ROUTER_AE_TITLE,
  server: config.ROUTER_SERVER_URL,
  pending: router.queue.unsentCount(),
});
// Tests and the bench read this line to find the SCP's port when it was 0.
if (process.env.ROUTER_ANNOUNCE_PORT === '1')
  process.stdout.write(`ROUTER_DICOM_PORT=${router.scp.port}\nROUTER_PORT=${router.api.port}\n`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log('router stopping', { signal });
    void router.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
