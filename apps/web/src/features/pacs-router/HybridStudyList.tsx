import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type THybridStudy, type TOfflineReportState } from '@radflow/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { OfflineImagesDialog } from './OfflineImagesDialog';
import { offlineViewerPath } from './offline-viewer';
import { isServedByRouter } from './served-by-router';
import { OfflineReportDialog } from './OfflineReportDialog';
import { hybridStudiesQueryKey, routerInfoQueryKey, type RouterClient } from './router-client';
import { RouterSignInForm } from './RouterSignInForm';
import { errorText } from '../../lib/error-text';

/** What each offline report state reads as in the list (HYBRID.md). */
export const HYBRID_STATE_LABELS: Record<TOfflineReportState, string> = {
  NONE: 'Not reported',
  PENDING: 'Saved on the router, waiting for the link',
  SYNCED: 'In the cloud',
  CONFLICT: 'Conflict: not sent',
};

/** The list's refresh while open: the sync moves reports to the cloud in the background. */
const HYBRID_REFRESH_MS = 30_000;

/** DICOM DA (YYYYMMDD) as the lists show dates (YYYY-MM-DD); anything else as it is. */
const studyDate = (value: string | null) =>
  value && /^\d{8}$/.test(value)
    ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}`
    : (value ?? '');

const COLUMNS = [
  'Id',
  'Patient',
  'Patient ID',
  'Study',
  'Modality',
  'Study date',
  'Images',
  'Report',
  'Actions',
] as const;

function matches(study: THybridStudy, filters: { patient: string; study: string }): boolean {
  const has = (value: string | null, needle: string) =>
    needle.trim() === '' || (value ?? '').toLowerCase().includes(needle.trim().toLowerCase());
  return (
    (has(study.patientName, filters.patient) || has(study.patientId, filters.patient)) &&
    has(study.studyDescription, filters.study)
  );
}

/**
 * /hybrid-study-list (spec-core §2 OFFLINE_HYBRID 'Manage report'; issue 27 §4): the studies the
 * center's router holds and the report written on the router for each. The same screen whether the
 * page came from the cloud (the router at the group's address) or from the router itself with the
 * cloud unreachable (apps/router/HYBRID.md).
 */
export function HybridStudyListScreen({
  client,
  knownEmail,
}: {
  client: RouterClient;
  knownEmail: string | null;
}) {
  const queryClient = useQueryClient();
  const [signedIn, setSignedIn] = useState(client.hasSession());
  const [filters, setFilters] = useState({ patient: '', study: '' });
  const [open, setOpen] = useState<THybridStudy | null>(null);
  const [viewing, setViewing] = useState<THybridStudy | null>(null);
  const navigate = useNavigate();
  // The diagnostic viewer reads the router's images with a cookie of the router's own origin: it is
  // offered on the page the router serves, not on the cloud's (which has its own viewer).
  const servedByThisRouter = isServedByRouter();
  const studies = useQuery({
    queryKey: hybridStudiesQueryKey(client.baseUrl),
    queryFn: () => client.hybridStudies(),
    enabled: signedIn,
    refetchInterval: HYBRID_REFRESH_MS,
  });
  const refresh = () =>
    void queryClient.invalidateQueries({ queryKey: hybridStudiesQueryKey(client.baseUrl) });
  // Whose session this is (it may be another user's than the cloud page's): the device copies of
  // unsaved text are theirs. The page's user only when the router cannot say.
  const routerInfo = useQuery({
    queryKey: routerInfoQueryKey(client.baseUrl),
    queryFn: () => client.info(),
    enabled: signedIn,
  });

  if (!signedIn || (studies.error && !client.hasSession())) {
    return (
      <Box>
        <PageHeader title="Manage report" />
        <RouterSignInForm
          client={client}
          knownEmail={knownEmail}
          intro="Sign in to your center’s router with your Radflow e-mail and password. Without the cloud, the router accepts the password you last signed in with while it was online."
          onSignedIn={() => {
            // Whoever signed in now, maybe not the user whose session ended: their router info
            // (the key of the device copies of unsaved text) and their list, asked anew.
            void queryClient.resetQueries({ queryKey: routerInfoQueryKey(client.baseUrl) });
            refresh();
            setSignedIn(true);
          }}
        />
      </Box>
    );
  }
  const rows = (studies.data ?? []).filter((s) => matches(s, filters));
  const filtered = (studies.data ?? []).length > 0 && rows.length === 0;
  return (
    <Box>
      <PageHeader title="Manage report" />
      <Typography variant="body2" sx={{ mb: 1 }}>
        The studies held by your center’s router ({client.baseUrl}). Reports you write here are kept on the
        router and go to the cloud when the link is back.
        {routerInfo.data?.user && ` Signed in to the router as ${routerInfo.data.user.email}.`}
      </Typography>
      {studies.isFetching && <LinearProgress aria-label="Loading" />}
      {studies.isError && <Alert severity="error">{errorText(studies.error)}</Alert>}
      <Table size="small" aria-label="Hybrid study list">
        <TableHead>
          <TableRow>
            {COLUMNS.map((c) => (
              <TableCell key={c}>{c}</TableCell>
            ))}
          </TableRow>
          <TableRow>
            <TableCell />
            <TableCell>
              <TextField
                size="small"
                variant="standard"
                slotProps={{ htmlInput: { 'aria-label': 'Filter Patient' } }}
                value={filters.patient}
                onChange={(e) => setFilters({ ...filters, patient: e.target.value })}
              />
            </TableCell>
            <TableCell />
            <TableCell>
              <TextField
                size="small"
                variant="standard"
                slotProps={{ htmlInput: { 'aria-label': 'Filter Study' } }}
                value={filters.study}
                onChange={(e) => setFilters({ ...filters, study: e.target.value })}
              />
            </TableCell>
            <TableCell colSpan={COLUMNS.length - 4}>
              {(filters.patient || filters.study) && (
                <Button size="small" onClick={() => setFilters({ patient: '', study: '' })}>
                  Clear all filters
                </Button>
              )}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((s) => {
            const state: TOfflineReportState = s.report?.state ?? 'NONE';
            return (
              <TableRow key={s.studyInstanceUid} sx={s.urgent ? { bgcolor: 'error.dark' } : undefined}>
                <TableCell>{s.reportStatusId ?? '—'}</TableCell>
                <TableCell>{s.patientName ?? ''}</TableCell>
                <TableCell>{s.patientId ?? ''}</TableCell>
                <TableCell>{s.studyDescription ?? ''}</TableCell>
                <TableCell>{s.modality ?? ''}</TableCell>
                <TableCell>{studyDate(s.studyDate)}</TableCell>
                <TableCell>
                  {s.images}
                  {!s.uploaded && <Chip size="small" label="Upload pending" sx={{ ml: 1 }} />}
                </TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={state === 'CONFLICT' ? 'warning' : state === 'SYNCED' ? 'success' : 'default'}
                    label={HYBRID_STATE_LABELS[state]}
                  />
                  {s.report?.signedOff && <Chip size="small" label="Signed off" sx={{ ml: 1 }} />}
                  {state === 'CONFLICT' && (
                    <Typography variant="caption" component="div">
                      {s.report?.reason}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>
                  {s.images > 0 && (
                    <Button
                      size="small"
                      aria-label={`Images ${s.patientName ?? s.studyInstanceUid}`}
                      onClick={() => setViewing(s)}
                    >
                      Images
                    </Button>
                  )}
                  {s.images > 0 && servedByThisRouter && (
                    <Button
                      size="small"
                      aria-label={`Viewer ${s.patientName ?? s.studyInstanceUid}`}
                      onClick={() => void navigate(offlineViewerPath(s.studyInstanceUid))}
                    >
                      Viewer
                    </Button>
                  )}
                  <Button
                    size="small"
                    aria-label={`Report ${s.patientName ?? s.studyInstanceUid}`}
                    onClick={() => setOpen(s)}
                  >
                    {s.report ? 'Open report' : 'Report'}
                  </Button>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {(filtered || (studies.isSuccess && rows.length === 0)) && (
        <Box sx={{ textAlign: 'center', py: 4 }}>
          <Typography variant="h6">No result found</Typography>
          <Typography>We could not find what you searched for.</Typography>
          {filtered && <Typography>You can try clearing all the filter.</Typography>}
        </Box>
      )}
      {viewing && <OfflineImagesDialog client={client} study={viewing} onClose={() => setViewing(null)} />}
      {open && (
        <OfflineReportDialog
          client={client}
          study={open}
          userEmail={routerInfo.data?.user?.email ?? (routerInfo.isError ? knownEmail : null)}
          onClose={() => setOpen(null)}
          onSaved={refresh}
        />
      )}
    </Box>
  );
}
