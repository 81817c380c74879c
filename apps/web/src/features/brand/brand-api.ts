import { DEFAULT_BRAND, type TBrand, ZBrand } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';
import { isServedByRouter } from '../pacs-router/served-by-router';
import { sendMultipart } from '../settings/settings-api';

export const BRAND_PATH = '/api/brand-assets';

/**
 * Whose page asks: the signed-in shell (the caller's group), a public page before sign-in (the
 * group of the address), or a share page (the shared study's group). The same call answers all
 * three; the scope keeps their answers apart in the cache, so signing in never shows the address's
 * brand to a user of another group.
 */
export type TBrandScope = { kind: 'session' } | { kind: 'public' } | { kind: 'share'; link: string };

export const BRAND_QUERY_KEY = ['brand'] as const;
export const brandQueryKey = (scope: TBrandScope) =>
  [...BRAND_QUERY_KEY, scope.kind, scope.kind === 'share' ? scope.link : ''] as const;

/** GET /api/brand-assets (spec-core §7 brand assets path). Quiet: a page without it shows ours. */
export function fetchBrand(scope: TBrandScope, signal?: AbortSignal): Promise<TBrand> {
  const query = scope.kind === 'share' ? `?shareLink=${encodeURIComponent(scope.link)}` : '';
  return apiRequest(`${BRAND_PATH}${query}`, { signal, quiet: true, schema: ZBrand });
}

/**
 * The product name and logo to show; the product's own until (or unless) the answer comes. The page
 * the center's router serves with the cloud unreachable asks nothing: the router keeps no brand.
 */
export function useBrand(scope: TBrandScope = { kind: 'session' }): TBrand {
  const { data } = useQuery({
    queryKey: brandQueryKey(scope),
    queryFn: ({ signal }) => fetchBrand(scope, signal),
    enabled: !isServedByRouter(),
    staleTime: 5 * 60_000,
    retry: false,
    refetchOnWindowFocus: false,
  });
  return data ?? DEFAULT_BRAND;
}

/** POST /api/setting/brand (group admins): name, a new logo, or removeLogo. */
export async function saveBrand(input: {
  productName: string;
  logo: File | null;
  removeLogo: boolean;
}): Promise<TBrand> {
  const body = new FormData();
  body.append('productName', input.productName);
  if (input.removeLogo) body.append('removeLogo', 'true');
  if (input.logo) body.append('logo', input.logo);
  return ZBrand.parse(await sendMultipart<unknown>('/api/setting/brand', body));
}
