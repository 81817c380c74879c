import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { parseAllowedDestinations } from './forward/destination.js';
import { printerFromSetting } from './print/printer-setting.js';
import { parseUploadHours } from './upload/upload-hours.js';

/**
 * The center router's configuration (spec-core §7 "Local router", issue 27 §1), from the
 * environment; every setting and its default is in ROUTER.md's table.
 */

/** `AET` or `AET:urgent`, comma separated: the modalities allowed to send, one AE title each. */
export interface ModalityAe {
  readonly aeTitle: string;
  /** Every study from this AE is urgent (e.g. the emergency room's CT). */
  readonly urgent: boolean;
}

const AE_TITLE = /^[\x20-\x5b\x5d-\x7e]{1,16}$/;

export function parseModalityAes(text: string): ModalityAe[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const [aeTitle = '', flag] = part.split(':').map((s) => s.trim());
      if (!AE_TITLE.test(aeTitle))
        throw new Error(`'${aeTitle}' is not an AE title (1-16 characters, no backslash)`);
      if (flag !== undefined && flag.toLowerCase() !== 'urgent')
        throw new Error(`'${part}': only ':urgent' may follow an AE title`);
      return { aeTitle, urgent: flag !== undefined };
    });
}

/** `https://a.example,http://b:8080` → their origins; anything else throws, naming it. */
export function parseOrigins(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((entry) => {
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        throw new Error(`'${entry}' is not an origin (http(s)://host[:port])`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new Error(`'${entry}' is not an http(s) origin`);
      return url.origin;
    });
}

/** The printer setting as it is, once printerFromSetting accepts it (the router does not start with a broken one). */
function checkPrinterSetting(text: string): string {
  printerFromSetting(text, 'CHECK');
  return text.trim();
}

const refined = <T>(parse: (text: string) => T) =>
  z.string().transform((text, ctx) => {
    try {
      return parse(text);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
      return z.NEVER;
    }
  });

export const ZRouterConfig = z.object({
  /** The local API for the browser at the center (127.0.0.1 only; 0: a free port, for tests). */
  ROUTER_PORT: z.coerce.number().int().min(0).max(65535).default(8090),
  /**
   * Further web app origins allowed to call the local API (comma separated), when the browser opens
   * the web app at another origin than ROUTER_SERVER_URL (API.md "Wiring").
   */
  ROUTER_WEB_ORIGINS: refined(parseOrigins).default([]),
  /**
   * The PACS send-job may C-STORE to ("AE@host:port" or "host:port", comma separated); empty: any
   * PACS on a private or loopback address (forward/FORWARD.md).
   */
  ROUTER_FORWARD_DESTINATIONS: refined(parseAllowedDestinations).default([]),
  /** The center's printer: `dicom:AE@host:port` or `command:lp -d Printer`; empty: none (print/). */
  ROUTER_PRINTER: refined(checkPrinterSetting).default(''),
  /**
   * The web app's built files (apps/web/dist), served at http://localhost:ROUTER_PORT/ so hybrid
   * users open the app with the cloud unreachable (HYBRID.md); empty: not served.
   */
  ROUTER_WEB_DIR: z.string().default(''),
  /** The cloud's origin. */
  ROUTER_SERVER_URL: z.url().default('http://127.0.0.1:8080'),
  ROUTER_DATA_DIR: z.string().min(1).default('./router-data'),
  /** The center's API token (GET /api/user/token of a center user): DICOMweb only. */
  ROUTER_API_TOKEN: z.string().default(''),
  /** The C-STORE SCP the modalities send to. */
  ROUTER_DICOM_PORT: z.coerce.number().int().min(0).max(65535).default(11112),
  ROUTER_DICOM_HOST: z.string().min(1).default('0.0.0.0'),
  ROUTER_AE_TITLE: z
    .string()
    .regex(AE_TITLE, 'an AE title: 1-16 characters, no backslash')
    .default('RADFLOW_ROUTER'),
  /** The modalities' AE titles (`CT1,MR1,ER_CT:urgent`); empty: any calling AE title is accepted. */
  ROUTER_MODALITY_AE_TITLES: refined(parseModalityAes).default([]),
  /** Upload cap in kbit/s (0: none). */
  ROUTER_UPLOAD_KBITPS: z.coerce.number().min(0).default(0),
  /** When uploads run (`20:00-07:00,12:00-14:00`, local time); empty: always. */
  ROUTER_UPLOAD_HOURS: refined(parseUploadHours).default([]),
  /** Spool disk quota in MB (0: none) and the alarm threshold in percent of it. */
  ROUTER_DISK_QUOTA_MB: z.coerce.number().min(0).default(0),
  ROUTER_DISK_ALARM_PERCENT: z.coerce.number().min(1).max(100).default(90),
  ROUTER_UPLOAD_BATCH_MB: z.coerce.number().min(0.1).max(512).default(1),
  ROUTER_UPLOAD_BATCH_COUNT: z.coerce.number().int().min(1).max(1000).default(50),
  ROUTER_UPLOAD_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(3),
  /** While the link is down, how often the cloud is probed (ms) so uploads resume at once. */
  ROUTER_LINK_PROBE_MS: z.coerce.number().int().min(100).default(500),
  /** Retry backoff: the first step and the longest wait, in ms. */
  ROUTER_RETRY_BASE_MS: z.coerce.number().int().min(10).default(1000),
  ROUTER_RETRY_MAX_MS: z.coerce.number().int().min(100).default(60_000),
});
export type TRouterConfig = z.infer<typeof ZRouterConfig>;

/**
 * The web app a release bundles (`web/` beside the program, packaging/build.ts), when it is there;
 * else null (a router run from the sources: set ROUTER_WEB_DIR).
 */
export function bundledWebDir(programUrl: string): string | null {
  const dir = path.join(path.dirname(fileURLToPath(programUrl)), 'web');
  return existsSync(path.join(dir, 'index.html')) ? dir : null;
}

/** The settings from the environment; an empty ROUTER_WEB_DIR takes `defaultWebDir` when given. */
export function loadRouterConfig(
  env: Record<string, string | undefined>,
  defaultWebDir: string | null = null,
): TRouterConfig {
  const parsed = ZRouterConfig.safeParse(
    defaultWebDir && !env.ROUTER_WEB_DIR ? { ...env, ROUTER_WEB_DIR: defaultWebDir } : env,
  );
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid router configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
