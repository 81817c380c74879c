import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  templateFits,
  type THybridStudy,
  type TOfflineReport,
  type TOfflineReportState,
  type TOfflineResolution,
} from '@radflow/core';
import type { Editor } from '@tiptap/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { ReportEditor } from '../report-editor/ReportEditor';
import { TemplatesButton } from '../report-editor/TemplatesButton';
import type { TTemplateSource } from '../report-templates';
import { OfflineImagesDialog } from './OfflineImagesDialog';
import type { RouterClient } from './router-client';
import { RouterSignInForm } from './RouterSignInForm';
import { errorText } from '../../lib/error-text';
import { clearDraftAt, offlineDraftKey, readDraftAt, writeDraftAt } from '../report-editor/local-drafts';

/** What each offline report state reads as in the list (HYBRID.md). */
export const HYBRID_STATE_LABELS: Record<TOfflineReportState, string> = {
  NONE: 'Not reported',
  PENDING: 'Saved on the router, waiting for the link',
  SYNCED: 'In the cloud',
  CONFLICT: 'Conflict: not sent',
};

/** The two ways out of a conflict (HYBRID.md "Resolving a conflict"): the button and its confirm. */
const RESOLUTION_CHOICES: Record<TOfflineResolution, { button: string; confirm: string }> = {
  KEEP_CLOUD: {
    button: 'Keep the cloud’s report',
    confirm:
      'The router’s copy will show the cloud’s report. Your text stays on the router as history and is not sent.',
  },
  ADDENDUM: {
    button: 'Send mine as an addendum',
    confirm:
      'Your text goes to the cloud as an addendum of its signed-off report (only the doctor who signed it off may add one), or as a new version of an unsigned report.',
  },
};

/** Where a chosen resolution stands, as the dialog says it. */
function resolutionText(resolution: NonNullable<TOfflineReport['resolution']>): string {
  if (resolution.state === 'QUEUED') {
    return resolution.action === 'KEEP_CLOUD'
      ? 'Keeping the cloud’s report: your choice is saved on the router and goes to the cloud when the link allows.'
      : 'Sending yours as an addendum: your choice is saved on the router and goes to the cloud when the link allows.';
  }
  return resolution.action === 'KEEP_CLOUD'
    ? 'Kept the cloud’s report; your offline text is kept on the router as history.'
    : 'Sent yours to the cloud as an addendum; the copy here shows the cloud’s report.';
}

/** A report in CONFLICT: its reason, and the two choices, each confirmed before it is kept. */
function ConflictPanel({
  client,
  report,
  onResolved,
}: {
  client: RouterClient;
  report: TOfflineReport;
  onResolved: (report: TOfflineReport) => void;
}) {
  const [asking, setAsking] = useState<TOfflineResolution | null>(null);
  const resolve = useMutation({
    mutationFn: (action: TOfflineResolution) =>
      client.resolveOfflineConflict({ studyInstanceUid: report.studyInstanceUid, action }),
    onSuccess: (resolved) => {
      setAsking(null);
      onResolved(resolved);
    },
  });
  const queued = report.resolution?.state === 'QUEUED';
  return (
    <Alert severity="warning" sx={{ mb: 2 }}>
      The cloud did not take this report: {report.reason}. Your text is kept on the router.
      {report.resolution && <Typography sx={{ mt: 1 }}>{resolutionText(report.resolution)}</Typography>}
      {!queued && (
        <Box sx={{ mt: 1, display: 'flex', gap: 1 }}>
          {(Object.keys(RESOLUTION_CHOICES) as TOfflineResolution[]).map((action) => (
            <Button key={action} size="small" variant="outlined" onClick={() => setAsking(action)}>
              {RESOLUTION_CHOICES[action].button}
            </Button>
          ))}
        </Box>
      )}
      {resolve.isError && <Typography sx={{ mt: 1 }}>{errorText(resolve.error)}</Typography>}
      {asking && (
        <Dialog open onClose={() => setAsking(null)} aria-labelledby="resolve-title">
          <DialogTitle id="resolve-title">{RESOLUTION_CHOICES[asking].button}?</DialogTitle>
          <DialogContent>
            <Typography>{RESOLUTION_CHOICES[asking].confirm}</Typography>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setAsking(null)}>Cancel</Button>
            <Button variant="contained" disabled={resolve.isPending} onClick={() => resolve.mutate(asking)}>
              Confirm
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </Alert>
  );
}

/** The list's refresh while open: the sync moves reports to the cloud in the background. */
const HYBRID_REFRESH_MS = 30_000;

/** DICOM DA (YYYYMMDD) as the lists show dates (YYYY-MM-DD); anything else as it is. */
const studyDate = (value: string | null) =>
  value && /^\d{8}$/.test(value)
    ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}`
    : (value ?? '');

/**
 * The doctor's templates the router kept at their last online sign-in (HYBRID.md "Templates
 * offline"), filtered by the study as the cloud filters them (core `templateFits`).
 */
const routerTemplates = (client: RouterClient): TTemplateSource => ({
  key: 'router',
  load: async (query) => {
    const kept = await client.hybridTemplates();
    return kept.templates.filter((t) => templateFits(t, query));
  },
});

/** A device copy's time, as the notice says it. */
const keptAt = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function OfflineReportDialog({
  client,
  study,
  userEmail,
  onClose,
  onSaved,
}: {
  client: RouterClient;
  study: THybridStudy;
  /** The signed-in user: the device copies of unsaved text are theirs alone (none when unknown). */
  userEmail: string | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [report, setReport] = useState(study.report);
  const saved = { name: report?.name ?? study.studyDescription ?? '', content: report?.content ?? '' };
  const locked = report?.state === 'CONFLICT' || report?.signedOff === true;
  const draftKey = userEmail ? offlineDraftKey(client.baseUrl, study.studyInstanceUid, userEmail) : null;
  // What this device kept of text typed and not saved on the router (a closed tab, a closed dialog,
  // a lost sign-in), read once at opening. Taken back at once when the router's text has not moved
  // since it was typed; offered when the router has a newer version.
  const [kept, setKept] = useState(() => {
    const copy = draftKey && !locked ? readDraftAt(draftKey) : null;
    if (copy && copy.name === saved.name && copy.content === saved.content) {
      clearDraftAt(draftKey!);
      return null;
    }
    return copy;
  });
  const takenAtOnce = kept !== null && kept.baseVersion === (report?.localVersion ?? null);
  const [notice, setNotice] = useState<'restored' | 'older' | null>(
    kept ? (takenAtOnce ? 'restored' : 'older') : null,
  );
  const [name, setName] = useState(takenAtOnce ? kept.name : saved.name);
  const [content, setContent] = useState(takenAtOnce ? kept.content : saved.content);
  const [editor, setEditor] = useState<Editor | null>(null);
  const unsaved = name !== saved.name || content !== saved.content;
  /** Every change goes to this device at once; a text equal to the router's needs no copy. */
  const keep = (next: { name: string; content: string }) => {
    if (!draftKey) return;
    if (next.name === saved.name && next.content === saved.content) clearDraftAt(draftKey);
    else
      writeDraftAt(draftKey, {
        ...next,
        baseVersion: report?.localVersion ?? null,
        updatedAt: new Date().toISOString(),
      });
  };
  const showText = (text: { name: string; content: string }) => {
    setName(text.name);
    setContent(text.content);
    editor?.commands.setContent(text.content, { emitUpdate: false });
  };
  const save = useMutation({
    mutationFn: (signOff: boolean) =>
      client.saveOfflineReport({
        studyInstanceUid: study.studyInstanceUid,
        name,
        content,
        signOff,
        baseLocalVersion: report?.localVersion ?? null,
      }),
    onSuccess: () => {
      if (draftKey) clearDraftAt(draftKey);
      onSaved();
      onClose();
    },
  });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="offline-report-title">
      <DialogTitle id="offline-report-title">
        {study.patientName ?? study.studyInstanceUid} — {study.studyDescription ?? 'Report'}
      </DialogTitle>
      <DialogContent>
        {report?.state === 'CONFLICT' && (
          <ConflictPanel
            client={client}
            report={report}
            onResolved={(resolved) => {
              setReport(resolved);
              onSaved();
            }}
          />
        )}
        {report?.state !== 'CONFLICT' && report?.resolution?.state === 'DONE' && (
          <Alert severity="success" sx={{ mb: 2 }}>
            {resolutionText(report.resolution)}
          </Alert>
        )}
        {report?.signedOff === true && report.state !== 'CONFLICT' && (
          <Alert severity="info" sx={{ mb: 2 }}>
            Signed off on the router by {report.authorName}.
          </Alert>
        )}
        {notice === 'restored' && kept && (
          <Alert
            severity="info"
            sx={{ mb: 2 }}
            action={
              <Button
                color="inherit"
                size="small"
                onClick={() => {
                  showText(saved);
                  if (draftKey) clearDraftAt(draftKey);
                  setKept(null);
                  setNotice(null);
                }}
              >
                Discard it
              </Button>
            }
          >
            Restored the text you typed on this device on {keptAt(kept.updatedAt)} and had not saved.
          </Alert>
        )}
        {notice === 'older' && kept && (
          <Alert
            severity="warning"
            sx={{ mb: 2 }}
            action={
              <Button
                color="inherit"
                size="small"
                onClick={() => {
                  showText(kept);
                  keep(kept);
                  setNotice('restored');
                }}
              >
                Restore it
              </Button>
            }
          >
            This device kept text you typed on {keptAt(kept.updatedAt)} and had not saved, from an earlier
            version: the router now has a newer one.
          </Alert>
        )}
        <TextField
          label="Report name"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            keep({ name: e.target.value, content });
          }}
          disabled={locked}
          fullWidth
          sx={{ my: 1 }}
        />
        {!locked && (
          <TemplatesButton
            study={{ modality: study.modality, sex: null }}
            source={routerTemplates(client)}
            onInsert={(html) => editor?.chain().focus().insertContent(html).run()}
          />
        )}
        <ReportEditor
          label="Report"
          initialContent={content}
          editable={!locked}
          fontSize={12}
          fontFamily="Arial"
          onChange={(html) => {
            setContent(html);
            keep({ name, content: html });
          }}
          onEditor={setEditor}
        />
        {!locked && unsaved && draftKey && (
          <Typography variant="caption" color="text.secondary">
            Not saved on the router yet — kept on this device
          </Typography>
        )}
        {save.isError && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorText(save.error)}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
        {!locked && (
          <>
            <Button disabled={save.isPending || name.trim() === ''} onClick={() => save.mutate(false)}>
              Save
            </Button>
            <Button
              variant="contained"
              disabled={save.isPending || name.trim() === '' || content === ''}
              onClick={() => save.mutate(true)}
            >
              Sign off
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}

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
  const studies = useQuery({
    queryKey: ['hybrid-studies', client.baseUrl],
    queryFn: () => client.hybridStudies(),
    enabled: signedIn,
    refetchInterval: HYBRID_REFRESH_MS,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['hybrid-studies', client.baseUrl] });
  // Whose session this is (it may be another user's than the cloud page's): the device copies of
  // unsaved text are theirs. The page's user only when the router cannot say.
  const routerInfo = useQuery({
    queryKey: ['router-info', client.baseUrl],
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
          onSignedIn={() => setSignedIn(true)}
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
