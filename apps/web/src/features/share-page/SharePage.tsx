import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { SHARE_MESSAGES, isAccountPaymentLink } from '@radflow/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { FullPageMessage } from '../../components/FullPageMessage';
import { BrandLogo } from '../brand/BrandLogo';
import { AccountPaymentPage } from './AccountPaymentPage';
import { ShareCodeStep } from './ShareCodeStep';
import { ShareStudyView } from './ShareStudyView';
import { fetchSharePage, shareFailureOf, sharePageQueryKey } from './share-page.api';

function Notice({ severity, text }: { severity: 'error' | 'warning' | 'info'; text: string }) {
  return (
    <Box sx={{ maxWidth: 520, mx: 'auto', width: '100%', p: 3 }}>
      <Alert severity={severity}>{text}</Alert>
    </Box>
  );
}

/**
 * /share?link={shareLink} (spec-core §2, a public path; issue 7 §5): a patient or referring doctor
 * reads the signed report, downloads its PDF and scrolls the images, without signing in; behind a
 * code to the patient's mobile when the group requires it. `/share?link={email}` is the viewer's
 * payment page instead (spec-core §4 Viewer payment).
 */
export function SharePage() {
  const [params] = useSearchParams();
  const link = params.get('link')?.trim() ?? '';
  if (isAccountPaymentLink(link)) return <AccountPaymentPage email={link} />;
  return <SharedStudyPage link={link} />;
}

function SharedStudyPage({ link }: { link: string }) {
  return (
    <>
      {link && (
        <Box component="header" sx={{ px: { xs: 1.5, md: 3 }, pt: 2 }}>
          <BrandLogo size={28} scope={{ kind: 'share', link }} />
        </Box>
      )}
      <SharedStudyContent link={link} />
    </>
  );
}

function SharedStudyContent({ link }: { link: string }) {
  const queryClient = useQueryClient();
  const page = useQuery({
    queryKey: sharePageQueryKey(link),
    queryFn: ({ signal }) => fetchSharePage(link, signal),
    enabled: link !== '',
    retry: false,
    staleTime: Infinity,
  });

  if (!link) return <Notice severity="error" text={SHARE_MESSAGES.linkNotFound} />;
  if (page.isPending) return <FullPageMessage text="Loading…" fullHeight={false} />;
  if (page.isError) {
    const failure = shareFailureOf(page.error);
    switch (failure.kind) {
      case 'code':
        return (
          <Box sx={{ p: { xs: 1.5, md: 3 } }}>
            <ShareCodeStep
              link={link}
              mobile={failure.mobile}
              onVerified={() => void queryClient.invalidateQueries({ queryKey: sharePageQueryKey(link) })}
            />
          </Box>
        );
      case 'gone':
        return <Notice severity="warning" text={failure.text} />;
      case 'not-found':
        return <Notice severity="error" text={SHARE_MESSAGES.linkNotFound} />;
      case 'message':
        return <Notice severity="error" text={failure.text} />;
    }
  }
  return <ShareStudyView link={link} page={page.data} />;
}

export default SharePage;
