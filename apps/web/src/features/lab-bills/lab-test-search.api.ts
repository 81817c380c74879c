import { apiRequest } from '../../api/client';

/**
 * POST /api/lab/all-test/get (spec-lab §7): the bill's test search, a paged table search, fuzzy over
 * code, name and modality; without text the first 5 by code. The catalogue is a colleague's module
 * (lab-tests: core ZAllTestSearch / ZLabTestPage); this file is the one place the bill screen knows
 * its body and answer, so the merge swaps the local types below for core's.
 */

export interface TBillableTest {
  id: number;
  testCode: string;
  testName: string;
  testType: string;
  labModality: string;
  department: string;
  /** Rupees. */
  price: number;
  active: boolean;
}

export interface TTestSearchBody {
  text: string;
  labModality?: string;
  department?: string;
  page: number;
  size: number;
}

/** spec-lab §7: without text the search shows the first 5 by code. */
export const TEST_SEARCH_SIZE = 5;

export async function searchBillableTests(
  body: TTestSearchBody,
  signal?: AbortSignal,
): Promise<TBillableTest[]> {
  const page = await apiRequest<{ content: TBillableTest[] }>('/api/lab/all-test/get', {
    json: body,
    signal,
  });
  // Inactive tests cannot be billed (the server refuses them): they are not offered.
  return (page?.content ?? []).filter((t) => t.active !== false);
}
