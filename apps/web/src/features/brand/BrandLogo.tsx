import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { RadflowMark } from '../../components/RadflowLogo';
import { type TBrandScope, useBrand } from './brand-api';

/**
 * The product's mark and name, or the group's own (issue 29 §8): on the sign-in page, the top bar
 * and the share page.
 */
export function BrandLogo({
  size = 28,
  withName = true,
  scope,
}: {
  size?: number;
  withName?: boolean;
  scope?: TBrandScope;
}) {
  const brand = useBrand(scope);
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      {brand.logoUrl ? (
        <Box
          component="img"
          src={brand.logoUrl}
          alt={`${brand.productName} logo`}
          sx={{ height: size, maxWidth: size * 4, objectFit: 'contain' }}
        />
      ) : (
        <RadflowMark size={size} />
      )}
      {withName && (
        <Typography
          component="span"
          sx={{ fontWeight: 700, letterSpacing: 0.4, fontSize: Math.round(size * 0.62), lineHeight: 1 }}
        >
          {brand.productName}
        </Typography>
      )}
    </Box>
  );
}
