import { ALL_TEST_DEFAULT_SIZE, ZLabTestPage, type TAllTestSearch, type TLabTest } from '@radflow/core';
import { apiRequest } from '../../api/client';

/**
 * POST /api/lab/all-test/get (spec-lab §7): the bill's test search, a paged table search, fuzzy over
 * code, name and modality; without text the first 5 by code. Body and answer are lab-tests' core
 * schemas (ZAllTestSearch, ZLabTestPage), so the catalogue and the bill agree on one shape.
 */

/** spec-lab §7: without text the search shows the first 5 by code. */
export const TEST_SEARCH_SIZE = ALL_TEST_DEFAULT_SIZE;

export async function searchBillableTests(body: TAllTestSearch, signal?: AbortSignal): Promise<TLabTest[]> {
  const page = await apiRequest('/api/lab/all-test/get', { json: body, schema: ZLabTestPage, signal });
  // Inactive tests cannot be billed (the server refuses them): they are not offered.
  return page.content.filter((t) => t.active);
}
