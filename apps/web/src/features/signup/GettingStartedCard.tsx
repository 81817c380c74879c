import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { KNOWN_ROUTES, TGettingStarted } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { GETTING_STARTED_QUERY_KEY, fetchGettingStarted } from './signup-api';

interface TStep {
  key: keyof TGettingStarted;
  label: string;
  hint: string;
  to: (typeof KNOWN_ROUTES)[number];
  action: string;
}

/** The new group's first steps, each with the existing screen that does it. */
export const GETTING_STARTED_STEPS: readonly TStep[] = [
  {
    key: 'hasCenter',
    label: 'Add a center',
    hint: 'Studies arrive through a center: its DICOM AE titles name it.',
    to: '/manage-centers',
    action: 'Manage centers',
  },
  {
    key: 'hasRadiologist',
    label: 'Invite a radiologist',
    hint: 'Invite a user with the doctor role; they choose their own password.',
    to: '/manage-users',
    action: 'Manage users',
  },
  {
    key: 'hasStudy',
    label: 'Send the first study',
    hint: "Use Create study above, or send from a modality with the center's AE title.",
    to: '/manage-centers',
    action: 'AE titles',
  },
  {
    key: 'hasBillingDetails',
    label: 'Set billing details',
    hint: 'Bank, PAN and GST details printed on your invoices.',
    to: '/setting-page',
    action: 'Manage preference',
  },
];

/**
 * A new group's guided start (issue 26 §4): on the admin's study list while the group has no study,
 * the checklist of GET /api/group/getting-started with links to the screens that do each step. Loaded
 * lazily by the study list, only for the group's admins. Nothing when the group has a study, or when
 * the call fails (the list itself matters more).
 */
export function GettingStartedCard() {
  const steps = useQuery({
    queryKey: GETTING_STARTED_QUERY_KEY,
    queryFn: ({ signal }) => fetchGettingStarted(signal),
    retry: false,
  });
  if (!steps.data || steps.data.hasStudy) return null;
  const done = GETTING_STARTED_STEPS.filter((s) => steps.data[s.key]).length;
  return (
    <Card variant="outlined" sx={{ mb: 2 }} aria-labelledby="getting-started-title">
      <CardContent>
        <Typography id="getting-started-title" component="h2" variant="h3">
          Get started
        </Typography>
        <Typography variant="body2" color="textSecondary">
          {done} of {GETTING_STARTED_STEPS.length} done. Your workspace is empty until the first study
          arrives.
        </Typography>
        <List dense>
          {GETTING_STARTED_STEPS.map((step) => {
            const isDone = steps.data[step.key];
            return (
              <ListItem key={step.key} data-testid={`step-${step.key}`} data-done={isDone}>
                <ListItemIcon sx={{ minWidth: 32 }}>
                  {isDone ? (
                    <CheckCircleIcon color="success" fontSize="small" titleAccess="Done" />
                  ) : (
                    <RadioButtonUncheckedIcon fontSize="small" titleAccess="To do" />
                  )}
                </ListItemIcon>
                <ListItemText primary={step.label} secondary={step.hint} />
                <Link component={RouterLink} to={step.to} sx={{ whiteSpace: 'nowrap', ml: 2 }}>
                  {step.action}
                </Link>
              </ListItem>
            );
          })}
        </List>
      </CardContent>
    </Card>
  );
}

export default GettingStartedCard;
