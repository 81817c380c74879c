import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { MESSAGES } from '@radflow/core';
import { Link as RouterLink, useLocation } from 'react-router';

/** spec-core §2 "anything else shows 'Not found'". */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <Box component="section" sx={{ maxWidth: 560, mx: 'auto', my: 8, px: 2, textAlign: 'center' }}>
      <Typography variant="h1" gutterBottom>
        {MESSAGES.notFound}
      </Typography>
      <Typography color="textSecondary" sx={{ mb: 3, wordBreak: 'break-all' }}>
        There is no page at {pathname}.
      </Typography>
      <Button component={RouterLink} to="/user/get-route" variant="contained">
        Go to my start page
      </Button>
    </Box>
  );
}
