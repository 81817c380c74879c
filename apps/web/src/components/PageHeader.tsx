import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, type ReactNode } from 'react';
import { useBrand } from '../features/brand/brand-api';

/** A screen's h1, which also names the browser tab. */
export function PageHeader({ title, actions }: { title: string; actions?: ReactNode }) {
  const { productName } = useBrand();
  useEffect(() => {
    document.title = `${title} · ${productName}`;
    return () => {
      document.title = productName;
    };
  }, [title, productName]);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
      <Typography variant="h1" sx={{ flex: 1 }}>
        {title}
      </Typography>
      {actions}
    </Box>
  );
}
