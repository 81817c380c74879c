import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { routerBaseUrl, type TPendingCase, type TPendingCaseState } from '@radflow/core';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { useSignedInSession } from '../auth/session';
import { ROUTER_DOWNLOAD_PATH } from './router-download';
import { createRouterClient, MESSAGE_ROUTER_UNREACHABLE, type RouterClient } from './router-client';
import { RouterSignInForm } from './RouterSignInForm';
import { RouterUpdateDialog } from './RouterUpdateDialog';
import { useRouterState } from './useRouterState';
import { errorText } from '../../lib/error-text';

const STATE_LABELS: Record<TPendingCaseState, string> = {
  QUEUED: 'Queued',
  UPLOADING: 'Uploading',
  WAITING: 'Waiting to retry',
  FAILED: 'Failed',
  DONE: 'Uploaded',
};

function QueueTable({
  cases,
  onRetry,
  onDelete,
  busyStudy,
}: {
  cases: readonly TPendingCase[];
  onRetry: (uid: string) => void;
  onDelete: (uid: string) => void;
  busyStudy: string | null;
}) {
  if (cases.length === 0) {
    return <Typography color="textSecondary">The router's queue is empty.</Typography>;
  }
  return (
    <Table size="small" aria-label="Upload queue">
      <TableHead>
        <TableRow>
          <TableCell>Patient</TableCell>
          <TableCell>Study</TableCell>
          <TableCell>Modality</TableCell>
          <TableCell sx={{ minWidth: 180 }}>Images sent</TableCell>
          <TableCell>State</TableCell>
          <TableCell>Reason</TableCell>
          <TableCell />
        </TableRow>
      </TableHead>
      <TableBody>
        {cases.map((c) => {
          const percent = c.total === 0 ? 0 : Math.round((c.sent / c.total) * 100);
          return (
            <TableRow key={c.studyInstanceUid} data-study={c.studyInstanceUid}>
              <TableCell>
                {c.patientName ?? '—'}
                {c.urgent && <Chip size="small" color="error" label="Urgent" sx={{ ml: 1 }} />}
              </TableCell>
              <TableCell>{c.studyDescription ?? c.studyInstanceUid}</TableCell>
              <TableCell>{c.modality ?? '—'}</TableCell>
              <TableCell>
                <Typography variant="body2">
                  {c.sent} / {c.total}
                </Typography>
                <LinearProgress variant="determinate" value={percent} aria-label={`${percent}% sent`} />
              </TableCell>
              <TableCell>{STATE_LABELS[c.state]}</TableCell>
              <TableCell>{c.error ?? ''}</TableCell>
              <TableCell align="right">
                {(c.state === 'FAILED' || c.state === 'WAITING') && (
                  <Button
                    size="small"
                    onClick={() => onRetry(c.studyInstanceUid)}
                    disabled={busyStudy !== null}
                  >
                    Retry
                  </Button>
                )}
                {c.state === 'DONE' && (
                  <Button
                    size="small"
                    onClick={() => onDelete(c.studyInstanceUid)}
                    disabled={busyStudy !== null}
                  >
                    Delete from router
                  </Button>
                )}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

/** The /pacs-router screen for one router client (the page below picks the client; tests pass a fake). */
export function PacsRouterScreen({ client, userEmail }: { client: RouterClient; userEmail: string }) {
  const { showError, showInfo } = useSnackbar();
  const state = useRouterState(client);
  const [dismissedVersion, setDismissedVersion] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const studyAction = useMutation({
    mutationFn: ({ kind, uid }: { kind: 'retry' | 'delete'; uid: string }) =>
      kind === 'retry' ? client.retry(uid) : client.deleteUploadedStudy(uid),
    onSuccess: () => void state.refreshAll(),
    onError: (error) => showError(errorText(error)),
  });
  const upload = useMutation({
    mutationFn: (file: File) =>
      file.name.toLowerCase().endsWith('.zip') ? client.uploadZip(file) : client.uploadFile(file),
    onSuccess: (answer) => {
      showInfo(`${answer.queued} file(s) queued for upload`);
      void state.refreshAll();
    },
    onError: (error) => showError(errorText(error)),
  });
  const update = useMutation({
    mutationFn: () => client.update(),
    onSuccess: (answer) => {
      setDismissedVersion(answer.version ?? state.version.data?.latestVersion ?? null);
      showInfo(
        answer.status === 'STARTED'
          ? 'The router is updating and restarts by itself'
          : 'The router is up to date',
      );
    },
    onError: (error) => showError(errorText(error)),
  });
  const signOut = useMutation({
    mutationFn: () => client.logout(),
    onSettled: () => void state.refreshAll(),
  });

  const offer = state.version.data;
  const showOffer = offer?.updateAvailable === true && offer.latestVersion !== dismissedVersion;

  return (
    <Box component="section">
      <PageHeader
        title="PACS router"
        actions={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Chip
              label={state.online ? 'Online' : 'Offline'}
              color={state.online ? 'success' : 'default'}
              data-testid="router-status"
            />
            {state.signedIn && (
              <>
                <Button onClick={() => fileInput.current?.click()} disabled={upload.isPending}>
                  Upload file or zip
                </Button>
                <input
                  ref={fileInput}
                  type="file"
                  accept=".dcm,.zip,application/dicom,application/zip"
                  hidden
                  aria-label="File to upload"
                  onChange={(e) => {
                    const file = e.target.files?.[0];
                    if (file) upload.mutate(file);
                    e.target.value = '';
                  }}
                />
                <Button onClick={() => signOut.mutate()}>Sign out of router</Button>
              </>
            )}
          </Stack>
        }
      />

      {state.info.isError && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {MESSAGE_ROUTER_UNREACHABLE} It answers at {client.baseUrl}.{' '}
          <Link href={ROUTER_DOWNLOAD_PATH}>Download router</Link>
        </Alert>
      )}

      {state.info.data && !state.signedIn && (
        <RouterSignInForm
          client={client}
          knownEmail={userEmail}
          intro="Sign in to the router on this computer with your Radflow password. The router checks it with the cloud and keeps no password."
          onSignedIn={() => void state.refreshAll()}
        />
      )}

      {state.signedIn && state.info.data && (
        <Stack spacing={3}>
          <Typography color="textSecondary">
            {state.info.data.name} {state.info.data.version} · uploads to {state.info.data.serverUrl} · signed
            in as {state.info.data.user?.email}
          </Typography>

          <Paper variant="outlined" sx={{ p: 2 }}>
            <Typography variant="h2" sx={{ mb: 1 }}>
              Queue
            </Typography>
            {state.cases.isError && <Alert severity="error">{errorText(state.cases.error)}</Alert>}
            {state.cases.data && (
              <QueueTable
                cases={state.cases.data}
                busyStudy={studyAction.isPending ? (studyAction.variables?.uid ?? null) : null}
                onRetry={(uid) => studyAction.mutate({ kind: 'retry', uid })}
                onDelete={(uid) => studyAction.mutate({ kind: 'delete', uid })}
              />
            )}
          </Paper>

          <Paper variant="outlined" sx={{ p: 2 }}>
            <Typography variant="h2" sx={{ mb: 1 }}>
              Settings
            </Typography>
            {state.settings.data && (
              <Table size="small" aria-label="Router settings">
                <TableBody>
                  {Object.entries(state.settings.data).map(([name, value]) => (
                    <TableRow key={name}>
                      <TableCell component="th" scope="row">
                        {name}
                      </TableCell>
                      <TableCell>{value === null ? '—' : String(value)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </Paper>
        </Stack>
      )}

      {showOffer && offer && (
        <RouterUpdateDialog
          check={offer}
          busy={update.isPending}
          onUpdate={() => update.mutate()}
          onLater={() => setDismissedVersion(offer.latestVersion)}
        />
      )}
    </Box>
  );
}

/**
 * /pacs-router (spec-core §2; CENTER when useInBrowserPythonApp): the router at the group's
 * customRouterUrl, else at localhost (core routerBaseUrl).
 */
export default function PacsRouterPage() {
  const { user, flags } = useSignedInSession();
  const baseUrl = routerBaseUrl(flags);
  const client = useMemo(() => createRouterClient(baseUrl), [baseUrl]);
  return <PacsRouterScreen client={client} userEmail={user.email} />;
}
