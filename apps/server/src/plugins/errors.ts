import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, MESSAGES, type TErrorBody } from '@radflow/core';
import { TooManyRequestsError } from '../errors.js';
import { inputErrorOf } from './input-limits.js';

export interface TErrorReply {
  statusCode: number;
  body: TErrorBody;
  /** Seconds for a Retry-After header. */
  retryAfterSeconds?: number;
}

const body = (
  errorStatusCode: number,
  errorDescription: string,
  additionalInfo: string | null,
  txnId: string,
) => ({
  errorStatusCode,
  errorDescription,
  additionalInfo,
  txnId,
});

/** Fastify's own request errors that are the client's fault, with the text we answer. */
const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'Unsupported content type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'Invalid content length' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'The JSON body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'Malformed JSON body' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  FST_ERR_CTP_INVALID_TYPE: { status: 400, message: 'Invalid content type' },
  FST_ERR_CTP_EMPTY_TYPE: { status: 415, message: 'Missing content type' },
};

/**
 * Turns any error into the one error body of spec-core §8. Pure: the error handler below and the
 * unit tests use it. Input problems are 4xx, never 500.
 */
export function toErrorReply(
  error: unknown,
  txnId: string,
  request: { contentType?: string | undefined } = {},
): TErrorReply {
  if (error instanceof AppError) {
    return {
      statusCode: error.httpStatus,
      body: body(error.errorStatusCode, error.message, error.additionalInfo, txnId),
      ...(error instanceof TooManyRequestsError ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const [first] = error.validation;
    const field = first?.instancePath.replace(/^\//, '').replaceAll('/', '.') || null;
    const context = (error as { validationContext?: string }).validationContext ?? 'body';
    return {
      statusCode: 400,
      body: body(400, first?.message ?? 'Invalid request', field ?? context, txnId),
    };
  }
  const fastifyError = error as Partial<FastifyError> | null;
  if (fastifyError && typeof fastifyError === 'object') {
    if (isResponseSerializationError(fastifyError as Error) && 'method' in fastifyError) {
      return { statusCode: 500, body: body(500, 'Internal server error', null, txnId) };
    }
    const known = fastifyError.code ? CLIENT_ERRORS[fastifyError.code] : undefined;
    if (known) {
      // A refused body names its type (e.g. a form's application/x-www-form-urlencoded on a JSON route).
      const named = known.status === 415 ? mediaTypeOf(request.contentType) : null;
      return { statusCode: known.status, body: body(known.status, known.message, named, txnId) };
    }
    if (fastifyError.validation) {
      return { statusCode: 400, body: body(400, fastifyError.message ?? 'Invalid request', null, txnId) };
    }
    if (error instanceof SyntaxError) {
      return { statusCode: 400, body: body(400, 'Malformed request body', null, txnId) };
    }
    const status = fastifyError.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return {
        statusCode: status,
        body: body(status, fastifyError.message || MESSAGES.pleaseTryAgain, null, txnId),
      };
    }
  }
  return { statusCode: 500, body: body(500, 'Internal server error', null, txnId) };
}

/** The media type of a Content-Type header, without its parameters; null when there is none. */
function mediaTypeOf(contentType: string | undefined): string | null {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type ? type.slice(0, 100) : null;
}

/** One error handler and the JSON 404 for /api paths (issue 2 §2). */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      const answer = toErrorReply(inputErrorOf(error, request) ?? error, request.id, {
        contentType: request.headers['content-type'],
      });
      if (answer.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      else
        request.log.info(
          { status: answer.statusCode, error: answer.body.errorDescription },
          'request refused',
        );
      if (answer.retryAfterSeconds) void reply.header('retry-after', String(answer.retryAfterSeconds));
      return reply.status(answer.statusCode).send(answer.body);
    });
  },
  { name: 'errors' },
);

/** The JSON 404 of an unknown API path. */
export function sendApiNotFound(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?')[0] ?? request.url;
  return reply.status(404).send(body(404, MESSAGES.notFound, `${request.method} ${path}`, request.id));
}
