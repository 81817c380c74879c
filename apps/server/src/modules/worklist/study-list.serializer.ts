import { Ajv, type AnySchemaObject, type ValidateFunction } from 'ajv';
import fastJson, { type Schema as TJsonSchema } from 'fast-json-stringify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import { ResponseSerializationError, serializerCompiler } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';
import { ZStudyListPage } from '@radflow/core';

/**
 * The list calls' answer (core ZStudyListPage, 20-200 rows of 55 fields) is the server's busiest
 * contract. The app's serializer (fastify-type-provider-zod) checks an answer with zod and then
 * JSON.stringify-s it; on a page of rows that cost about three times what checking with a compiled
 * JSON Schema validator and writing with Fastify's compiled serializer costs (DECISIONS.md
 * "Throughput"). So these routes compile their success schema, converted from the same core zod
 * schema, twice: ajv checks the answer (every field present, of its type and value set, no other
 * field), then fast-json-stringify writes it. An answer that breaks the contract is a
 * ResponseSerializationError: the error handler logs it and answers 500, as on every other route,
 * rather than handing the browser a row it cannot read.
 *
 * fast-json-stringify alone is not a check: it throws on a missing required field, but writes the
 * text "7" as 7 where an integer is due, a number as text where a string is. Error answers keep the
 * app's serializer.
 */
export function checkedSerializerCompiler(route: FastifyRouteSchemaDef<unknown>): (data: unknown) => string {
  const { schema, method, url } = route;
  if (String(route.httpStatus).startsWith('2') && schema instanceof z.ZodType) {
    return checkedSerializer(schema, method, url);
  }
  return serializerCompiler(route as FastifyRouteSchemaDef<ZodType>);
}

const ajv = new Ajv({ allErrors: false });

/** Compiled once per schema: every app built (the tests build many) registers the same routes. */
const compiled = new WeakMap<ZodType, { check: ValidateFunction; write: (data: unknown) => string }>();

function compile(schema: ZodType) {
  let found = compiled.get(schema);
  if (!found) {
    // The answer as the server writes it ('output'); draft-07 is what both compilers read by default.
    const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7' });
    found = {
      check: ajv.compile(json as AnySchemaObject),
      write: fastJson(json as TJsonSchema) as (data: unknown) => string,
    };
    compiled.set(schema, found);
  }
  return found;
}

/*
 * Compiled when the module loads, not when an app gets ready: compiling takes tens of milliseconds
 * (ajv and fast-json-stringify generate code for 55 fields), and a stretch that long inside `ready`
 * read as a busy event loop to the load shedding (plugins/load-shedding.ts), which refused the first
 * calls after start on a loaded machine.
 */
compile(ZStudyListPage);

/** The answer as JSON text, or a ResponseSerializationError naming the first field out of contract. */
export function checkedSerializer(schema: ZodType, method: string, url: string): (data: unknown) => string {
  const { check, write } = compile(schema);
  return (data) => {
    if (!check(data)) {
      const [first] = check.errors ?? [];
      const path = (first?.instancePath ?? '').split('/').filter((p) => p !== '');
      const message = `${first?.instancePath || '/'} ${first?.message ?? 'does not match the schema'}`;
      // The error handler and the log read the cause as a ZodError, as the app's serializer throws it.
      const cause = new z.ZodError([{ code: 'custom', path, message, input: undefined }]);
      throw new ResponseSerializationError(method, url, { cause });
    }
    return write(data);
  };
}
