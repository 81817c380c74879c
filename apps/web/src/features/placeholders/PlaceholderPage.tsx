import ConstructionIcon from '@mui/icons-material/ConstructionOutlined';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { PageHeader } from '../../components/PageHeader';
import type { TPlaceholderPath } from './placeholder-paths';
import { PLACEHOLDER_SCREENS } from './placeholder-screens';

/** A screen a later issue builds: titled with its menu label, saying what comes and when. */
export function PlaceholderPage({ path }: { path: TPlaceholderPath }) {
  const screen = PLACEHOLDER_SCREENS[path];
  return (
    <Box component="section">
      <PageHeader title={screen.title} />
      <Paper
        variant="outlined"
        sx={{ p: 3, display: 'flex', gap: 2, alignItems: 'flex-start', maxWidth: 720 }}
      >
        <ConstructionIcon color="primary" />
        <Box>
          <Typography sx={{ fontWeight: 600 }} data-testid="placeholder-note">
            {screen.capability} — arrives with {screen.arrivesWith}.
          </Typography>
          <Typography color="textSecondary" sx={{ mt: 0.5 }}>
            {screen.summary}
          </Typography>
        </Box>
      </Paper>
    </Box>
  );
}

export default PlaceholderPage;
