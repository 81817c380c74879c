import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { PRODUCT_NAME, ZApiVersion } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { apiRequest } from '../../api/client';

export const COPYRIGHT = `© 2026 ${PRODUCT_NAME}`;

const LINKS = [
  { page: 'terms', label: 'Terms' },
  { page: 'privacy', label: 'Privacy' },
  { page: 'contact', label: 'Contact' },
  { page: 'refund', label: 'Refund' },
] as const;

/**
 * The running server's version (spec-core §7 GET /settings/api-version), asked once per session;
 * on failure it is undefined and nothing is shown, as the spec says.
 */
function useApiVersion(enabled: boolean): string | undefined {
  const query = useQuery({
    queryKey: ['api-version'],
    queryFn: ({ signal }) =>
      apiRequest('/api/settings/api-version', { schema: ZApiVersion, signal, quiet: true }),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  return query.data?.version;
}

/**
 * spec-core §2 Shell footer: copyright, terms, privacy (and contact, refund) links; signed in, the
 * server's version.
 */
export function Footer({ signedIn = false }: { signedIn?: boolean }) {
  const version = useApiVersion(signedIn);
  return (
    <Box
      component="footer"
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 2,
        px: 2,
        py: 1,
        borderTop: 1,
        borderColor: 'divider',
        color: 'text.secondary',
      }}
    >
      <Typography variant="caption">{COPYRIGHT}</Typography>
      {LINKS.map((l) => (
        <Link
          key={l.page}
          component={RouterLink}
          to={`/info-page?page=${l.page}`}
          variant="caption"
          color="inherit"
          underline="hover"
        >
          {l.label}
        </Link>
      ))}
      {version !== undefined && <Typography variant="caption">Version {version}</Typography>}
    </Box>
  );
}
