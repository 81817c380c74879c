import {
  ZLabTest,
  ZLabTestAttributesStored,
  ZLabTestPage,
  type TLabTest,
  type TLabTestAttributesSave,
  type TLabTestAttributesStored,
  type TLabTestCreate,
  type TLabTestPage,
  type TLabTestSearch,
  type TLabTestUpdate,
} from '@radflow/core';
import { ApiError, apiRequest } from '../../api/client';

/** The test catalogue calls (spec-lab §7 Lab; the dashboard search and attributes are ours). */

export const LAB_TESTS_QUERY_KEY = ['lab-tests'] as const;

const ZLabTestList = { safeParse: (v: unknown) => ZLabTest.array().safeParse(v) };

export function searchLabTests(body: TLabTestSearch, signal?: AbortSignal): Promise<TLabTestPage> {
  return apiRequest('/api/lab/test/search', { json: body, schema: ZLabTestPage, signal });
}

export function fetchAllLabTests(signal?: AbortSignal): Promise<TLabTest[]> {
  return apiRequest('/api/lab/test/get-all', { schema: ZLabTestList, signal });
}

/** Quiet: the caller shows the server's reason (the dialog's snackbar, the CSV row's Failed). */
export function createLabTest(body: TLabTestCreate): Promise<TLabTest> {
  return apiRequest('/api/lab/test', { json: body, schema: ZLabTest, quiet: true });
}

export function updateLabTest(body: TLabTestUpdate): Promise<TLabTest> {
  return apiRequest('/api/lab/test', { method: 'PUT', json: body, schema: ZLabTest, quiet: true });
}

export function fetchTestAttributes(signal?: AbortSignal): Promise<TLabTestAttributesStored> {
  return apiRequest('/api/lab/test-attributes', { schema: ZLabTestAttributesStored, signal });
}

export function saveTestAttributes(body: TLabTestAttributesSave): Promise<TLabTestAttributesStored> {
  return apiRequest('/api/lab/test-attributes', {
    method: 'PUT',
    json: body,
    schema: ZLabTestAttributesStored,
    quiet: true,
  });
}

/** The server's errorDescription of a failed call, else the failure's own text. */
export function failureText(error: unknown): string {
  if (error instanceof ApiError) {
    const body = error.body as { errorDescription?: unknown } | null;
    if (body && typeof body.errorDescription === 'string' && body.errorDescription !== '') {
      return body.errorDescription;
    }
    if (error.failure.kind === 'message') return error.failure.text;
  }
  return error instanceof Error ? error.message : String(error);
}
