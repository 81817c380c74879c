import BlockIcon from '@mui/icons-material/Block';
import BrokenImageIcon from '@mui/icons-material/BrokenImageOutlined';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/**
 * Covers a viewport whose image cannot be shown (spec-core §8: a failed image shows a placeholder
 * image), so a black or stale canvas never passes for an image.
 */
export function ImagePlaceholder({ kind, text }: { kind: 'failed' | 'unsupported'; text: string }) {
  const Icon = kind === 'failed' ? BrokenImageIcon : BlockIcon;
  return (
    <Box
      data-testid={kind === 'failed' ? 'image-failed' : 'image-unsupported'}
      role="img"
      aria-label={text}
      sx={{
        position: 'absolute',
        inset: 0,
        zIndex: 2,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 1,
        p: 2,
        textAlign: 'center',
        color: 'grey.400',
        bgcolor: '#1a1a1a',
        backgroundImage:
          'repeating-linear-gradient(45deg, rgba(255,255,255,0.04) 0 12px, transparent 12px 24px)',
      }}
    >
      <Icon sx={{ fontSize: 64 }} />
      <Typography sx={{ maxWidth: 420 }}>{text}</Typography>
    </Box>
  );
}
