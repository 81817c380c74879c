/**
 * Takes the reports written offline up to the cloud when the link returns (issue 27 §4, HYBRID.md):
 * one save at a time, oldest first, through POST /api/router/offline-report with the router's API
 * token. Each write carries its router id, so a write whose answer was lost in a cut is sent again
 * and answered SAME by the cloud: exactly one version per offline save.
 *
 * | cloud's answer | what the router does |
 * |---|---|
 * | 200 SAVED / SAME | S record: the write is taken up (its cloud version is the next one's base) |
 * | 409 (reported or held in the cloud meanwhile), 400, 403 naming the author | C record: the study is held in CONFLICT with the reason, its text kept and shown; nothing more is sent for it |
 * | 404 (the study's images are not in the cloud yet) | that study waits `notInCloudMs`, the others go on |
 * | no answer (link down) | tried again every `probeMs` |
 * | 401, other 403, 429, 5xx | backoff (`backoffDelay`), Retry-After honoured |
 *
 * Measurements drawn in the offline viewer (annotation-store.ts) go up after the reports, one at a
 * time, through POST /api/router/offline-annotation: 200 → U record (taken); 403 the author may not
 * annotate the study or the cloud's measurement of that uid is another user's, 400 → X record (kept
 * on the router, not sent again); 404, no grant, link down and the rest as for a report.
 *
 * A resolution chosen for a conflict (HYBRID.md "Resolving a conflict") goes first, through
 * POST /api/router/offline-resolve: 200 → X record (the copy shows the cloud's report, the conflict
 * ends); 409, 400, 403 naming the author or the addendum rule → F record (the conflict stays, with the
 * cloud's reason; the user may choose again); the rest as above.
 */
import {
  OFFLINE_ANNOTATION_MESSAGES,
  OFFLINE_ANNOTATION_UPLOAD_PATH,
  OFFLINE_REPORT_MESSAGES,
  OFFLINE_REPORT_RESOLVE_PATH,
  OFFLINE_REPORT_UPLOAD_PATH,
  REPORTING_MESSAGES,
  ZOfflineAnnotationUploadResult,
  ZOfflineReportUploadResult,
  ZOfflineResolveResult,
  type TOfflineAnnotationUpload,
  type TOfflineReportUpload,
  type TOfflineResolveResult,
  type TOfflineResolveUpload,
} from '@radflow/core';
import { backoffDelay, retryAfterMs, type BackoffOptions } from '../upload/backoff.js';
import type { OfflineAnnotationStore, TAnnotationToSync } from './annotation-store.js';
import type { OfflineReportStore, TOfflineWrite } from './report-store.js';

export interface ReportSyncOptions {
  readonly serverUrl: string;
  readonly apiToken: string;
  readonly probeMs: number;
  readonly backoff: BackoffOptions;
  /** How long a study whose images the cloud does not have yet waits before it is tried again. */
  readonly notInCloudMs?: number;
  /** The author's grant (offline-sign-in.ts grantOf): the cloud takes no save without it. */
  readonly grantOf: (authorEmail: string) => string | undefined;
  /** The offline viewer's measurements, taken up after the reports (none: only reports go up). */
  readonly annotations?: OfflineAnnotationStore;
  readonly fetch?: typeof fetch;
  readonly log?: (message: string, fields?: Record<string, unknown>) => void;
}

type TAttempt =
  | { kind: 'taken'; reportStatusId: number; savedVersion: number }
  | { kind: 'resolved'; answer: TOfflineResolveResult }
  /** The cloud kept a measurement drawn offline. */
  | { kind: 'accepted' }
  | { kind: 'refused'; reason: string }
  | { kind: 'notInCloud' }
  | { kind: 'unproven' }
  | { kind: 'down' }
  | { kind: 'failed'; status: number; retryAfterMs: number | undefined };

const descriptionOf = (body: unknown, status: number): string =>
  typeof body === 'object' && body !== null && 'errorDescription' in body
    ? String((body as { errorDescription: unknown }).errorDescription)
    : `The cloud answered ${status}`;

/** 403 reasons that no retry changes: the router keeps the text or drawing and stops sending it. */
const REFUSED_FOR_GOOD: ReadonlySet<string> = new Set([
  OFFLINE_REPORT_MESSAGES.authorNotHybrid,
  REPORTING_MESSAGES.addendumNotYours,
  OFFLINE_ANNOTATION_MESSAGES.notTheAuthors,
  OFFLINE_ANNOTATION_MESSAGES.anothersMeasurement,
]);

export class ReportSync {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly deferredUntil = new Map<string, number>();
  private failures = 0;
  /** Requests sent so far (the screen and the tests read it). */
  attempts = 0;
  /** Whether the last attempt got an HTTP answer (the screen's link state). */
  linkUp = true;

  constructor(
    private readonly store: OfflineReportStore,
    private readonly options: ReportSyncOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** A new offline save, or the link may be back: look again now. */
  kick(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  private deferred(now: number): Set<string> {
    for (const [uid, until] of this.deferredUntil) if (until <= now) this.deferredUntil.delete(uid);
    return new Set(this.deferredUntil.keys());
  }

  private async run(): Promise<void> {
    while (this.running) {
      const resolution = this.store.nextResolution(this.deferred(Date.now()));
      if (resolution) {
        await this.handle(resolution.studyInstanceUid, await this.resolve(resolution), {
          onResolved: (answer) => this.store.markResolved(resolution.id, answer),
          onRefused: (reason) => this.store.markResolutionRefused(resolution.id, reason),
        });
        continue;
      }
      const next = this.store.nextToSync(this.deferred(Date.now()));
      if (next) {
        await this.handle(next.write.studyInstanceUid, await this.send(next.write, next.baseVersion), {
          onRefused: (reason) => this.store.markConflict(next.write.studyInstanceUid, reason),
          onTaken: (taken) => this.store.markSynced(next.write.id, taken),
        });
        continue;
      }
      const drawn = this.options.annotations?.nextToSync(this.deferred(Date.now()));
      if (drawn) {
        const annotations = this.options.annotations!;
        await this.handle(drawn.studyInstanceUid, await this.sendAnnotation(drawn), {
          onRefused: (reason) => annotations.markRefused(drawn, reason),
          onAccepted: () => annotations.markTakenUp(drawn),
        });
        continue;
      }
      const soonest = Math.min(...this.deferredUntil.values());
      await this.sleep(Number.isFinite(soonest) ? Math.max(10, soonest - Date.now()) : 60_000);
    }
  }

  /** What the router does with the cloud's answer (the table above). */
  private async handle(
    studyInstanceUid: string,
    attempt: TAttempt,
    on: {
      readonly onRefused: (reason: string) => Promise<void>;
      readonly onTaken?: (taken: { reportStatusId: number; savedVersion: number }) => Promise<void>;
      readonly onResolved?: (answer: TOfflineResolveResult) => Promise<void>;
      readonly onAccepted?: () => Promise<void>;
    },
  ): Promise<void> {
    const { onRefused, onTaken, onResolved, onAccepted } = on;
    if (!this.running) return;
    this.linkUp = attempt.kind !== 'down';
    switch (attempt.kind) {
      case 'taken':
        this.failures = 0;
        await onTaken?.(attempt);
        break;
      case 'resolved':
        this.failures = 0;
        await onResolved?.(attempt.answer);
        break;
      case 'accepted':
        this.failures = 0;
        await onAccepted?.();
        break;
      case 'refused':
        this.failures = 0;
        this.options.log?.('refused by the cloud for good: kept on the router, not sent again', {
          study: studyInstanceUid,
          reason: attempt.reason,
        });
        await onRefused(attempt.reason);
        break;
      case 'notInCloud':
        this.failures = 0;
        this.deferredUntil.set(studyInstanceUid, Date.now() + (this.options.notInCloudMs ?? 30_000));
        break;
      case 'unproven':
        // The author's grant is missing or expired: their next online sign-in here brings a new
        // one; meanwhile the study waits and the others go on.
        this.failures = 0;
        this.options.log?.('offline report waits for its author to sign in online', {
          study: studyInstanceUid,
        });
        this.deferredUntil.set(studyInstanceUid, Date.now() + (this.options.notInCloudMs ?? 30_000));
        break;
      case 'down':
        await this.sleep(this.options.probeMs);
        break;
      case 'failed':
        await this.sleep(attempt.retryAfterMs ?? backoffDelay(this.failures++, this.options.backoff));
        break;
    }
  }

  private async resolve(
    resolution: NonNullable<ReturnType<OfflineReportStore['nextResolution']>>,
  ): Promise<TAttempt> {
    const body: TOfflineResolveUpload = {
      resolutionId: resolution.id,
      action: resolution.action,
      studyInstanceUid: resolution.studyInstanceUid,
      authorEmail: resolution.authorEmail,
      authorGrant: this.options.grantOf(resolution.authorEmail) ?? '',
      name: resolution.name,
      content: resolution.content,
    };
    return this.post(OFFLINE_REPORT_RESOLVE_PATH, body, (answer) => {
      const parsed = ZOfflineResolveResult.safeParse(answer);
      return parsed.success ? { kind: 'resolved', answer: parsed.data } : null;
    });
  }

  private async send(write: TOfflineWrite, baseVersion: number | null): Promise<TAttempt> {
    const body: TOfflineReportUpload = {
      writeId: write.id,
      studyInstanceUid: write.studyInstanceUid,
      authorEmail: write.authorEmail,
      authorGrant: this.options.grantOf(write.authorEmail) ?? '',
      name: write.name,
      content: write.content,
      signOff: write.signOff,
      baseVersion,
      writtenAt: write.writtenAt,
    };
    return this.post(OFFLINE_REPORT_UPLOAD_PATH, body, (answer) => {
      const taken = ZOfflineReportUploadResult.safeParse(answer);
      return taken.success ? { kind: 'taken', ...taken.data } : null;
    });
  }

  private async sendAnnotation(drawn: TAnnotationToSync): Promise<TAttempt> {
    const body: TOfflineAnnotationUpload = {
      studyInstanceUid: drawn.studyInstanceUid,
      authorEmail: drawn.authorEmail,
      authorGrant: this.options.grantOf(drawn.authorEmail) ?? '',
      annotationUid: drawn.annotationUid,
      annotation: drawn.annotation,
    };
    return this.post(OFFLINE_ANNOTATION_UPLOAD_PATH, body, (answer) =>
      ZOfflineAnnotationUploadResult.safeParse(answer).success ? { kind: 'accepted' } : null,
    );
  }

  /** One call to the cloud, its answer sorted (the table above); `ok` reads a 2xx body. */
  private async post(
    path: string,
    body: unknown,
    ok: (answer: unknown) => TAttempt | null,
  ): Promise<TAttempt> {
    let response: Response;
    this.attempts++;
    try {
      response = await (this.options.fetch ?? fetch)(`${this.options.serverUrl.replace(/\/+$/, '')}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${this.options.apiToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
    } catch {
      return { kind: 'down' };
    }
    const answer: unknown = await response.json().catch(() => null);
    if (response.ok)
      return ok(answer) ?? { kind: 'failed', status: response.status, retryAfterMs: undefined };
    const reason = descriptionOf(answer, response.status);
    if (response.status === 404 && reason === OFFLINE_REPORT_MESSAGES.studyNotInCloud)
      return { kind: 'notInCloud' };
    if (response.status === 409 || response.status === 400) return { kind: 'refused', reason };
    if (response.status === 403 && reason === OFFLINE_REPORT_MESSAGES.authorNotProven)
      return { kind: 'unproven' };
    if (response.status === 403 && REFUSED_FOR_GOOD.has(reason)) return { kind: 'refused', reason };
    return {
      kind: 'failed',
      status: response.status,
      retryAfterMs: retryAfterMs(response.headers.get('retry-after') ?? undefined),
    };
  }
}
