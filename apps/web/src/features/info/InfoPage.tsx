import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { SupportContact } from '../../components/SupportContact';
import { useSession } from '../auth/session';
import { INFO_PAGES, INFO_TEXTS, toInfoPage } from './info-texts';

/**
 * /info-page?page=terms|privacy|contact|refund|pricing (a public page, spec-core §2). Pricing ends
 * with the deployment's support contact for a signed-in user (the voice trial dialog links here).
 */
export function InfoPage() {
  const [params] = useSearchParams();
  const page = toInfoPage(params.get('page'));
  const text = INFO_TEXTS[page];
  // A public page: the support contact comes with the signed-in user; signed out it is not known.
  const session = useSession();
  return (
    <Box component="article" sx={{ maxWidth: 760, mx: 'auto', width: '100%', p: { xs: 2, md: 3 } }}>
      <Stack direction="row" spacing={2} component="nav" aria-label="Information pages" sx={{ mb: 2 }}>
        {INFO_PAGES.map((p) => (
          <Link
            key={p}
            component={RouterLink}
            to={`/info-page?page=${p}`}
            underline={p === page ? 'always' : 'hover'}
            color={p === page ? 'primary' : 'textSecondary'}
            aria-current={p === page ? 'page' : undefined}
          >
            {INFO_TEXTS[p].title}
          </Link>
        ))}
      </Stack>
      <PageHeader title={text.title} />
      {text.sections.map((s) => (
        <Box component="section" key={s.heading} sx={{ mb: 2 }}>
          <Typography variant="h2" sx={{ fontSize: '1rem', mb: 0.5 }}>
            {s.heading}
          </Typography>
          <Typography color="textSecondary">{s.body}</Typography>
        </Box>
      ))}
      {page === 'pricing' && (
        <Box component="section" aria-labelledby="pricing-contact" sx={{ mb: 2 }}>
          <Typography id="pricing-contact" variant="h2" sx={{ fontSize: '1rem', mb: 0.5 }}>
            Who to contact
          </Typography>
          {!session.isPending && <SupportContact support={session.data?.user.support} />}
        </Box>
      )}
    </Box>
  );
}

export default InfoPage;
