import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '@radflow/core';

export const MESSAGE_NUL_IN_TEXT = 'Text may not contain the NUL character (\\u0000)';
/** The largest value of the database's integer columns (every id is one). */
export const MAX_DB_INTEGER = 2_147_483_647;
export const MESSAGE_NUMBER_TOO_LARGE = `Too large: must be at most ${MAX_DB_INTEGER}`;

type TInput = { params?: unknown; query?: unknown; body?: unknown };

/** Walks plain JSON-like values (objects, arrays, strings); files, streams and buffers are skipped. */
function findIn(value: unknown, found: (leaf: unknown) => boolean, path: string[] = []): string[] | null {
  if (found(value)) return path;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const hit = findIn(item, found, [...path, String(i)]);
      if (hit) return hit;
    }
    return null;
  }
  if (value && typeof value === 'object' && !Buffer.isBuffer(value) && !ArrayBuffer.isView(value)) {
    // A stream (an upload's body) is not input text.
    if (typeof (value as { pipe?: unknown }).pipe === 'function') return null;
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return [...path, key];
      const hit = findIn(item, found, [...path, key]);
      if (hit) return hit;
    }
  }
  return null;
}

/** The field (dotted path, as validation errors name it) of the request input where `found` holds. */
export function fieldOf(input: TInput, found: (leaf: unknown) => boolean): string | null {
  for (const part of [input.params, input.query, input.body]) {
    const hit = findIn(part, found);
    if (hit) return hit.length > 0 ? hit.join('.') : 'body';
  }
  return null;
}

/** The first PostgreSQL error in an error's cause chain (drizzle wraps the driver's). */
function databaseErrorOf(error: unknown): { code: string; message: string } | null {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof message === 'string') {
      return { code, message };
    }
  }
  return null;
}

/**
 * A database refusal caused by the request's own input, as the 400 it is (security issue §3): a
 * number beyond an integer column (PostgreSQL 22003, "value "2147483648" is out of range for type
 * integer") names the field of the input holding that value. Every route's ids and counts, present
 * and future, in one place; a value not found in the input is our bug and stays a 500.
 */
export function inputErrorOf(error: unknown, input: TInput): AppError | null {
  const db = databaseErrorOf(error);
  if (db?.code !== '22003') return null;
  const value = /value "(-?\d+)" is out of range/.exec(db.message)?.[1];
  if (!value) return null;
  const field = fieldOf(
    input,
    (leaf) => (typeof leaf === 'number' || typeof leaf === 'string') && String(leaf) === value,
  );
  return field ? new AppError('BAD_REQUEST', MESSAGE_NUMBER_TOO_LARGE, field) : null;
}

/**
 * PostgreSQL refuses the NUL character in text (and in jsonb): a NUL anywhere in the path, query or
 * body — JSON or the sign-in form — is 400 naming the field, before validation and before anything
 * runs (security issue §3; plugins/DECISIONS.md "Input").
 */
export const inputLimitsPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      const field = fieldOf(request, (leaf) => typeof leaf === 'string' && leaf.includes('\u0000'));
      if (field !== null) throw new AppError('BAD_REQUEST', MESSAGE_NUL_IN_TEXT, field);
    });
  },
  { name: 'input-limits' },
);
