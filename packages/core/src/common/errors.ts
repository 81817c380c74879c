import { z } from 'zod';
import { ERROR_TEXT_MAX_LENGTH } from './constants.js';
import { MESSAGES } from './messages.js';

/**
 * The one error body of spec-core §8: `{ errorStatusCode, errorDescription, additionalInfo, txnId }`.
 * `errorStatusCode` is the spec's internal code where it names one (4002, 5002), else the HTTP status.
 */
export const ZErrorBody = z
  .object({
    errorStatusCode: z.number().int(),
    errorDescription: z.string(),
    additionalInfo: z.string().nullable(),
    txnId: z.string(),
  })
  .meta({ id: 'ErrorBody' });
export type TErrorBody = z.infer<typeof ZErrorBody>;

/** Internal codes the spec names (spec-core §8). */
export const INTERNAL_CODES = {
  ALREADY_PRESENT: 4002,
  INVALID_DEVICE_ID: 5002,
} as const;

/** Our error kinds; one map turns each into an HTTP status. */
export const APP_ERROR_KINDS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  /** spec-core §8 'Payment needed': a viewer account's content waits for its payment. */
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  /** A representation we cannot make (an image the decoders cannot draw). */
  NOT_ACCEPTABLE: 406,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  INVALID_DEVICE_ID: 403,
  ALREADY_PRESENT: 409,
  INTERNAL: 500,
  /** A provider we depend on (SMTP, SMS gateway, a PACS) refused or failed: not our fault, not the caller's. */
  UPSTREAM_FAILED: 502,
} as const;
export type TAppErrorKind = keyof typeof APP_ERROR_KINDS;

export class AppError extends Error {
  readonly kind: TAppErrorKind;
  readonly additionalInfo: string | null;
  constructor(kind: TAppErrorKind, message: string, additionalInfo: string | null = null) {
    super(message);
    this.name = 'AppError';
    this.kind = kind;
    this.additionalInfo = additionalInfo;
  }
  get httpStatus(): number {
    return APP_ERROR_KINDS[this.kind];
  }
  /** The spec's internal code where it names one, else the HTTP status. */
  get errorStatusCode(): number {
    if (this.kind === 'INVALID_DEVICE_ID') return INTERNAL_CODES.INVALID_DEVICE_ID;
    if (this.kind === 'ALREADY_PRESENT') return INTERNAL_CODES.ALREADY_PRESENT;
    return this.httpStatus;
  }
}

/**
 * spec-core §8 "Binary error bodies are decoded first": an error answer to a request that expected
 * a file (ArrayBuffer or a byte view) is decoded as UTF-8 JSON; anything else is returned as is.
 */
export function decodeErrorBody(body: unknown): unknown {
  if (!(body instanceof ArrayBuffer) && !ArrayBuffer.isView(body)) return body;
  const bytes = ArrayBuffer.isView(body)
    ? new Uint8Array(body.buffer, body.byteOffset, body.byteLength)
    : new Uint8Array(body);
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * spec-core §8 "Other error responses": a message built from errorDescription, additionalInfo,
 * errorStatusCode and txnId, truncated to 150 characters; a plain string body gives 'Please try again'.
 */
export function formatErrorMessage(rawBody: unknown): string {
  const body = decodeErrorBody(rawBody);
  const parsed = ZErrorBody.partial().safeParse(body);
  if (typeof body !== 'object' || body === null || !parsed.success || !parsed.data.errorDescription) {
    return MESSAGES.pleaseTryAgain;
  }
  const { errorDescription, additionalInfo, errorStatusCode, txnId } = parsed.data;
  const parts = [errorDescription];
  if (additionalInfo) parts.push(additionalInfo);
  const tail = [
    errorStatusCode !== undefined ? `code ${errorStatusCode}` : null,
    txnId ? `ref ${txnId}` : null,
  ]
    .filter(Boolean)
    .join(', ');
  const text = tail ? `${parts.join(': ')} (${tail})` : parts.join(': ');
  return text.length > ERROR_TEXT_MAX_LENGTH ? `${text.slice(0, ERROR_TEXT_MAX_LENGTH - 1)}…` : text;
}

/** spec-core §8: a 403 whose internal code is INVALID_DEVICE_ID means the device awaits approval. */
export function isDeviceApprovalError(rawBody: unknown): boolean {
  const body = decodeErrorBody(rawBody);
  return (
    typeof body === 'object' &&
    body !== null &&
    (body as { errorStatusCode?: unknown }).errorStatusCode === INTERNAL_CODES.INVALID_DEVICE_ID
  );
}
