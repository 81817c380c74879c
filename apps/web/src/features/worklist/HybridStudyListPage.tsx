import { routerBaseUrl } from '@radflow/core';
import { useMemo } from 'react';
import { useSignedInSession } from '../auth/session';
import { HybridStudyListScreen } from '../pacs-router/HybridStudyList';
import { createRouterClient } from '../pacs-router/router-client';

/**
 * The offline hybrid list at /hybrid-study-list (spec-core §2, issue 27 §4) opened from the cloud:
 * the router at the group's customRouterUrl, else at localhost (core routerBaseUrl), as
 * /pacs-router finds it. With the cloud unreachable the router serves the same screen itself
 * (RouterOfflineApp; apps/router/HYBRID.md).
 */
export function HybridStudyListPage() {
  const { user, flags } = useSignedInSession();
  const baseUrl = routerBaseUrl(flags);
  const client = useMemo(() => createRouterClient(baseUrl), [baseUrl]);
  return <HybridStudyListScreen client={client} knownEmail={user.email} />;
}

export default HybridStudyListPage;
