import { AppError, type TErrorBody, type TOfflineTemplates } from '@radflow/core';
import type { z } from 'zod';
import type {
  CloudLogin,
  HybridReports,
  OfflineImages,
  ImagePrinter,
  Releases,
  SendJobs,
  SettingsSource,
  UploadQueue,
} from './ports.js';

export const MESSAGE_SIGN_IN = 'Please sign in to the router';

/** Everything the local API is built from (API.md); main.ts passes the real parts, tests fakes. */
export interface LocalApiOptions {
  /** The router's version (package.json), shown by /get-info. */
  version: string;
  /** The cloud the router uploads to; its origin is the web app's, allowed by CORS. */
  serverUrl: string;
  /** Further web app origins (e.g. the public address when serverUrl is an internal one). */
  extraOrigins?: readonly string[];
  /** Where an uploaded zip waits while it is unpacked (the queue's temp directory: cleared at start). */
  incomingDir: string;
  queue: UploadQueue;
  sendJobs: SendJobs;
  printer: ImagePrinter;
  releases: Releases;
  cloudLogin: CloudLogin;
  settings: SettingsSource;
  /** The offline hybrid calls (HYBRID.md); absent: they are 404. */
  hybrid?: HybridReports;
  /** A hybrid doctor's templates kept at their online sign-in (offline-sign-in.ts), for GET /hybrid/templates. */
  hybridTemplates?: (email: string) => TOfflineTemplates;
  /** The offline viewer's DICOMweb reads of the router's studies (HYBRID.md); absent: 404. */
  offlineImages?: OfflineImages;
  /** The web app's built files (ROUTER_WEB_DIR), served at / so the app opens without the cloud. */
  webDir?: string;
  /** Largest zip upload; default 4 GiB. One DICOM file (alone or in a zip): at most 1 GiB. */
  maxUploadBytes?: number;
  now?: () => number;
  logger?: boolean;
}

/** Turns any error into the error body of spec-core §8; input problems are 4xx, never 500. */
export function toErrorBody(error: unknown, txnId: string): { status: number; body: TErrorBody } {
  if (error instanceof AppError) {
    return {
      status: error.httpStatus,
      body: {
        errorStatusCode: error.errorStatusCode,
        errorDescription: error.message,
        additionalInfo: error.additionalInfo,
        txnId,
      },
    };
  }
  const status = (error as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const message = error instanceof Error ? error.message : 'Bad request';
    return {
      status,
      body: { errorStatusCode: status, errorDescription: message, additionalInfo: null, txnId },
    };
  }
  return {
    status: 500,
    body: { errorStatusCode: 500, errorDescription: 'Internal router error', additionalInfo: null, txnId },
  };
}

/** A body through its zod schema; the first problem becomes a 400 naming the field. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  throw new AppError('BAD_REQUEST', issue?.message ?? 'Invalid request', issue?.path.join('.') || null);
}
