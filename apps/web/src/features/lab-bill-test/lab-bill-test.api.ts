import { type TLabBillTestSearchRequest, ZRisPage } from '@radflow/core';
import { apiRequest } from '../../api/client';

/** spec-lab §7 POST /api/lab/lab-bill-test/search: one page of the lab's billed tests. */
export function searchLabBillTests(request: TLabBillTestSearchRequest, signal?: AbortSignal) {
  return apiRequest('/api/lab/lab-bill-test/search', {
    json: request,
    schema: ZRisPage,
    signal,
    // The page shows a refusal (bad dates) where the rows would be.
    quiet: true,
  });
}
