import WarningIcon from '@mui/icons-material/WarningAmber';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { formatStudyDate } from '../overlay-text';
import { priorWarning } from '../prior-warning';
import { usePriors } from '../viewer-api';

export interface TPriorStudy {
  id: number;
  studyInstanceUid: string;
  studyDate: string;
  studyDescription: string;
}

/**
 * The patient's other studies (issue 5 §3); one opens beside the current study. A prior whose name
 * or birth date differ from this study's (same id and issuer) says so in its row (issue 21 §8).
 */
export function PriorsPanel({ id, onOpen }: { id: number; onOpen: (prior: TPriorStudy) => void }) {
  const priors = usePriors(id);
  const list = priors.data?.priors ?? [];
  return (
    <Box sx={{ borderTop: 1, borderColor: 'divider' }}>
      <Typography variant="overline" sx={{ px: 1.5 }}>
        Priors
      </Typography>
      {priors.isPending ? (
        <Typography variant="caption" color="textSecondary" sx={{ px: 1.5, display: 'block' }}>
          Loading…
        </Typography>
      ) : list.length === 0 ? (
        <Typography variant="caption" color="textSecondary" sx={{ px: 1.5, display: 'block' }}>
          No prior studies
        </Typography>
      ) : (
        <List dense aria-label="Prior studies">
          {list.map((p) => {
            const warning = priorWarning(p);
            return (
              <ListItemButton key={p.id} onClick={() => onOpen(p)} title="Open beside the current study">
                <ListItemText
                  primary={`${formatStudyDate(p.studyDate)} · ${p.modalities.join('/')}`}
                  secondary={
                    <>
                      {`${p.studyDescription || 'No description'} · ${p.instanceCount} images`}
                      {warning && (
                        <Box
                          component="span"
                          role="alert"
                          sx={{ display: 'flex', gap: 0.5, alignItems: 'flex-start', color: 'warning.main' }}
                        >
                          <WarningIcon fontSize="inherit" sx={{ mt: '2px' }} aria-hidden />
                          {warning}
                        </Box>
                      )}
                    </>
                  }
                />
              </ListItemButton>
            );
          })}
        </List>
      )}
    </Box>
  );
}
