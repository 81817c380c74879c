import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { PRODUCT_NAME } from '@radflow/core';
import { Link as RouterLink } from 'react-router';

export const COPYRIGHT = `© 2026 ${PRODUCT_NAME}`;

const LINKS = [
  { page: 'terms', label: 'Terms' },
  { page: 'privacy', label: 'Privacy' },
  { page: 'contact', label: 'Contact' },
  { page: 'refund', label: 'Refund' },
] as const;

/** spec-core §2 Shell footer: copyright, terms, privacy (and contact, refund) links. */
export function Footer() {
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
    </Box>
  );
}
