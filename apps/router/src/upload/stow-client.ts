/**
 * One STOW-RS request to the cloud (`POST {cloud}/api/dicomweb/studies/{study}`, PS3.18 §10.5): a
 * multipart/related body of the batch's Part 10 files, streamed through the bandwidth cap, with the
 * center's API token; the answer read into one outcome per instance.
 *
 * What confirms an instance: it is in the answer's ReferencedSOPSequence (0008,1199) without a
 * Warning Reason (0008,1196). The cloud's ingest hashes the bytes it received and compares them
 * with the copy it keeps (apps/server archive DECISIONS "re-sent instance"): no warning means the
 * cloud holds exactly those bytes (stored now, or the same bytes stored before); 0xB006 means it
 * holds other bytes for that SOP Instance UID — not ours, so not confirmed. The bytes we send are
 * the ones we hashed at receive time: each file is read and checked against its recorded sha256
 * before it goes out (uploader.ts), and TLS carries them unchanged.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { throttled, type TokenBucket } from './token-bucket.js';

export interface StowPart {
  readonly sopInstanceUid: string;
  readonly bytes: Uint8Array;
}

export type StowInstanceOutcome =
  | { readonly kind: 'confirmed' }
  /** The cloud refused the instance for good (bad data, another center's study, other bytes kept). */
  | { readonly kind: 'refused'; readonly reason: string }
  /** Worth another try later (out of resources, processing failure, not in the answer). */
  | { readonly kind: 'transient'; readonly reason: string };

export type StowResult =
  | {
      readonly kind: 'answered';
      readonly status: number;
      readonly outcomes: Map<string, StowInstanceOutcome>;
    }
  /** No usable answer: network failure, cut, timeout, 5xx, 401/403, 429… — the link or the cloud, not the instances. */
  | {
      readonly kind: 'link-failure';
      readonly reason: string;
      /** No HTTP answer at all (refused, reset, timed out): the link is down, not the cloud busy. */
      readonly network: boolean;
      readonly retryAfter?: string;
    };

/** PS3.18 Table 10.5.3-2 failure reasons worth retrying: out of resources, processing failure. */
const TRANSIENT_FAILURES = new Set([0xa700, 0x0110, 0x0111, 0x0212, 0x0213]);
const WARNING_KEPT_FIRST = 0xb006;

type DicomJson = Record<string, { vr: string; Value?: unknown[] } | undefined>;

function firstString(item: DicomJson, tag: string): string | undefined {
  const value = item[tag]?.Value?.[0];
  return typeof value === 'string' ? value : undefined;
}
function firstNumber(item: DicomJson, tag: string): number | undefined {
  const value = item[tag]?.Value?.[0];
  return typeof value === 'number' ? value : undefined;
}
function items(body: DicomJson, tag: string): DicomJson[] {
  const value = body[tag]?.Value;
  return Array.isArray(value) ? (value as DicomJson[]) : [];
}

/** Reads the PS3.18 store response into one outcome per sent SOP Instance UID. */
export function readStoreResponse(body: unknown, sent: readonly string[]): Map<string, StowInstanceOutcome> {
  const outcomes = new Map<string, StowInstanceOutcome>();
  const json = (body ?? {}) as DicomJson;
  for (const item of items(json, '00081199')) {
    const uid = firstString(item, '00081155');
    if (!uid) continue;
    const warning = firstNumber(item, '00081196');
    const comment = firstString(item, '00000902');
    if (warning === WARNING_KEPT_FIRST) {
      outcomes.set(uid, {
        kind: 'refused',
        reason: `The cloud holds other content for this instance (first version kept)${comment ? `: ${comment}` : ''}`,
      });
    } else {
      outcomes.set(uid, { kind: 'confirmed' });
    }
  }
  for (const item of items(json, '00081198')) {
    const uid = firstString(item, '00081155');
    if (!uid) continue;
    const code = firstNumber(item, '00081197') ?? 0x0110;
    const reason = `Cloud failure 0x${code.toString(16).toUpperCase().padStart(4, '0')}${(() => {
      const comment = firstString(item, '00000902');
      return comment ? `: ${comment}` : '';
    })()}`;
    outcomes.set(
      uid,
      TRANSIENT_FAILURES.has(code) ? { kind: 'transient', reason } : { kind: 'refused', reason },
    );
  }
  for (const uid of sent) {
    if (!outcomes.has(uid)) outcomes.set(uid, { kind: 'transient', reason: 'Not in the cloud’s answer' });
  }
  return outcomes;
}

export interface StowClientOptions {
  /** The cloud's origin, e.g. https://cloud.example (the path /api/dicomweb/studies is added). */
  readonly serverUrl: string;
  readonly apiToken: string;
  readonly bucket: TokenBucket;
  /** No byte in either direction for this long aborts the request (default 30 s). */
  readonly idleTimeoutMs?: number;
}

function* multipartBody(parts: readonly StowPart[], boundary: string): Generator<Uint8Array> {
  for (const part of parts) {
    yield Buffer.from(
      `--${boundary}\r\nContent-Type: application/dicom\r\nContent-Length: ${part.bytes.length}\r\n\r\n`,
    );
    yield part.bytes;
    yield Buffer.from('\r\n');
  }
  yield Buffer.from(`--${boundary}--\r\n`);
}

/** Sends one batch; never throws for the network or the answer (a `link-failure` says why). */
export function stowBatch(
  studyInstanceUid: string,
  parts: readonly StowPart[],
  options: StowClientOptions,
): Promise<StowResult> {
  const boundary = `radflow-router-${randomBytes(12).toString('hex')}`;
  // The study's own route: the cloud refuses an instance of another study in the batch (0xA900).
  const url = new URL(`/api/dicomweb/studies/${encodeURIComponent(studyInstanceUid)}`, options.serverUrl);
  const transport = url.protocol === 'https:' ? https : http;
  const length = [...multipartBody(parts, boundary)].reduce((n, b) => n + b.length, 0);
  return new Promise<StowResult>((resolve) => {
    let settled = false;
    const finish = (result: StowResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const request = transport.request(url, {
      method: 'POST',
      // A fresh connection per batch: a pooled socket the link cut silently would eat a batch.
      agent: false,
      headers: {
        authorization: `Bearer ${options.apiToken}`,
        'content-type': `multipart/related; type="application/dicom"; boundary=${boundary}`,
        'content-length': String(length),
        accept: 'application/dicom+json',
      },
    });
    request.setTimeout(options.idleTimeoutMs ?? 30_000, () => {
      request.destroy(new Error(`No progress for ${Math.round((options.idleTimeoutMs ?? 30_000) / 1000)} s`));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      finish({
        kind: 'link-failure',
        reason: `Cloud unreachable: ${error.code ?? error.message}`,
        network: true,
      });
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error) =>
        finish({ kind: 'link-failure', reason: `Answer cut: ${error.message}`, network: true }),
      );
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        const text = Buffer.concat(chunks).toString('utf8');
        if (status === 200 || status === 202 || status === 409) {
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            finish({
              kind: 'link-failure',
              reason: `The cloud's answer (${status}) is not JSON`,
              network: false,
            });
            return;
          }
          const sent = parts.map((p) => p.sopInstanceUid);
          finish({ kind: 'answered', status, outcomes: readStoreResponse(body, sent) });
          return;
        }
        const retryAfter = response.headers['retry-after'];
        finish({
          kind: 'link-failure',
          reason: describeHttpFailure(status, text),
          network: false,
          ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
        });
      });
    });
    const body = Readable.from(throttled(multipartBody(parts, boundary), options.bucket));
    body.on('error', (error) => request.destroy(error));
    body.pipe(request);
  });
}

function describeHttpFailure(status: number, text: string): string {
  let message = '';
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message;
  } catch {
    message = text.slice(0, 120);
  }
  if (status === 401 || status === 403) {
    return `The cloud refused the router's API token (HTTP ${status})${message ? `: ${message}` : ''}`;
  }
  return `The cloud answered HTTP ${status}${message ? `: ${message}` : ''}`;
}

/**
 * Whether the cloud answers at all (`GET /api/health`, any HTTP status): the cheap probe the
 * uploader repeats while the link is down, instead of sending a batch into a dead line.
 */
export function probeCloud(serverUrl: string, timeoutMs = 5_000): Promise<boolean> {
  const url = new URL('/api/health', serverUrl);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = transport.get(url, { agent: false, timeout: timeoutMs }, (response) => {
      response.resume();
      response.on('end', () => resolve(true));
      response.on('error', () => resolve(false));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', () => resolve(false));
  });
}
