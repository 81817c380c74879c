/**
 * Adapters from the router's parts to the local API's ports (api/ports.ts): each part keeps its own
 * types and errors, and here they become the API contract's shapes and AppErrors (so input problems
 * answer 4xx, never 500). router.ts builds them; ROUTER.md "How the parts are wired".
 */
import { randomUUID } from 'node:crypto';
import {
  AppError,
  ROUTER_SEND_OFF_MESSAGE,
  type TPrintAnswer,
  type TRouterUpdateAnswer,
  type TRouterVersionCheck,
} from '@radflow/core';
import type { ImagePrinter, Releases, SendJobs as SendJobsPort } from './api/ports.js';
import type { CloudSettings } from './cloud-settings.js';
import { SendJobInputError, SendJobStateError, type SendJobs } from './forward/send-jobs.js';
import { PrintInputError } from './print/print-content.js';
import { PrintError, type ImagePrinter as DevicePrinter } from './print/printers.js';
import { ReleaseError, type RouterUpdater } from './release/index.js';

export const MESSAGE_NO_PRINTER = 'No printer is set up on this router (ROUTER_PRINTER)';

type Log = (message: string, fields?: Record<string, unknown>) => void;

/** forward/'s SendJobs behind the API: its input errors 400, its state errors 404 / 409. */
export function sendJobsPort(jobs: SendJobs, settings?: CloudSettings): SendJobsPort {
  return {
    async get(studyIds) {
      return jobs.get(studyIds);
    },
    async run(request) {
      // issue 29 §6 sendCapabilityAtCenter: the group decides whether its router sends onward.
      if (settings && !(await settings.read())?.sendCapabilityAtCenter) {
        throw new AppError('FORBIDDEN', ROUTER_SEND_OFF_MESSAGE);
      }
      try {
        return await jobs.run(request);
      } catch (error) {
        if (error instanceof SendJobInputError) throw new AppError('BAD_REQUEST', error.message);
        if (error instanceof SendJobStateError) throw new AppError(error.code, error.message);
        throw error;
      }
    },
  };
}

/**
 * print/'s printer behind the API: bad content 400, a printer that fails 502 (its reason in the
 * message); no printer configured: 409 saying so, whatever the request.
 */
export function printerPort(printer: DevicePrinter | undefined): ImagePrinter {
  return {
    async print(job): Promise<TPrintAnswer> {
      if (!printer) throw new AppError('CONFLICT', MESSAGE_NO_PRINTER);
      try {
        await printer.print({ images: job.images.map((i) => new Uint8Array(i.data)), content: job.content });
      } catch (error) {
        if (error instanceof PrintInputError) throw new AppError('BAD_REQUEST', error.message);
        if (error instanceof PrintError) throw new AppError('UPSTREAM_FAILED', error.message);
        throw error;
      }
      // The printer answered for the whole job (a DICOM film session or the print command exited 0).
      return { jobId: randomUUID(), status: 'PRINTED', error: null };
    },
  };
}

const releaseFailure = (error: unknown): unknown =>
  error instanceof ReleaseError
    ? new AppError(error.code === 'BUSY' ? 'CONFLICT' : 'UPSTREAM_FAILED', error.message, error.code)
    : error;

/**
 * release/'s updater behind check-version and update. The update itself runs after the answer (it
 * ends with the router restarting into the new version), so `update` answers STARTED once the cloud
 * offers a newer version, and a later failure is in the updater's status and the log.
 */
export function releasesPort(updater: RouterUpdater, log: Log): Releases {
  return {
    async checkVersion(): Promise<TRouterVersionCheck> {
      try {
        const check = await updater.checkForUpdate();
        return {
          currentVersion: check.currentVersion,
          latestVersion: check.latest?.version ?? null,
          updateAvailable: check.updateAvailable,
          notes: null,
        };
      } catch (error) {
        throw releaseFailure(error);
      }
    },
    async update(): Promise<TRouterUpdateAnswer> {
      const status = await updater.status();
      if (status.updating) return { status: 'STARTED', version: status.lastCheck?.latest?.version ?? null };
      let check;
      try {
        check = await updater.checkForUpdate();
      } catch (error) {
        throw releaseFailure(error);
      }
      if (!check.updateAvailable || !check.latest) {
        return { status: 'UP_TO_DATE', version: check.currentVersion };
      }
      void updater.applyUpdate().catch((error: unknown) => log('update failed', { err: String(error) }));
      return { status: 'STARTED', version: check.latest.version };
    },
  };
}

/** A GET on the cloud with the router's API token (the updater's `fetchFromCloud`). */
export function cloudFetcher(serverUrl: string, apiToken: string) {
  const base = serverUrl.endsWith('/') ? serverUrl : `${serverUrl}/`;
  return (path: string): Promise<Response> =>
    fetch(new URL(path.replace(/^\/+/, ''), base), {
      headers: { Authorization: `Bearer ${apiToken}` },
      // The artefact is tens of MB over a center's link; the version check is small.
      signal: AbortSignal.timeout(path.includes('/download') ? 30 * 60_000 : 30_000),
    });
}
