import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  formatDisplayTime,
  newerDraft,
  templateFits,
  type THybridStudy,
  type TReportDraft,
  type TOfflineReport,
  type TOfflineResolution,
} from '@radflow/core';
import type { Editor } from '@tiptap/react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { ReportEditor } from '../report-editor/ReportEditor';
import { TemplatesButton } from '../report-editor/TemplatesButton';
import { VersionListDialog } from '../report-editor/VersionsDialog';
import { offlineVersionRefs } from './offline-versions';
import type { TTemplateSource } from '../report-templates';
import type { RouterClient } from './router-client';
import { errorText } from '../../lib/error-text';
import { clearDraftAt, offlineDraftKey, readDraftAt, writeDraftAt } from '../report-editor/local-drafts';

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

/** What the device kept and the one thing to do about it. */
function KeptTextNotice({
  severity,
  action,
  onAction,
  children,
}: {
  severity: 'info' | 'warning';
  action: string;
  onAction: () => void;
  children: ReactNode;
}) {
  return (
    <Alert
      severity={severity}
      sx={{ mb: 2 }}
      action={
        <Button color="inherit" size="small" onClick={onAction}>
          {action}
        </Button>
      }
    >
      {children}
    </Alert>
  );
}

/** How long typing rests before the unsaved text goes to the router (the cloud editor's 2 s). */
const ROUTER_DRAFT_DELAY_MS = 2_000;

interface TOfflineReportDialogProps {
  client: RouterClient;
  study: THybridStudy;
  /** The signed-in user: the copies of unsaved text are theirs alone (none when unknown). */
  userEmail: string | null;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * A study's report written on the router (issue 27 §4; HYBRID.md): the name and the editor with the
 * router's templates, Save (a version on the router) and Sign off, a conflict's two ways out, and
 * the copies of text typed and not saved: on this device at once, on the router a moment later
 * (HYBRID.md "Unsaved text offline"). The router's copy is asked for before the editor opens.
 */
export function OfflineReportDialog(props: TOfflineReportDialogProps) {
  const { client, study, userEmail } = props;
  const routerDraft = useQuery({
    queryKey: ['offline-draft', client.baseUrl, study.studyInstanceUid, userEmail],
    queryFn: () => client.offlineDraft(study.studyInstanceUid),
    enabled: userEmail !== null,
    retry: false,
    gcTime: 0,
  });
  // The router is on this PC: its answer comes in milliseconds, so the dialog simply opens with it.
  if (routerDraft.isLoading) return null;
  // A router that cannot answer it (an older version, a failure) has no copy to offer.
  return <OfflineReportForm {...props} routerDraft={routerDraft.data ?? null} />;
}

function OfflineReportForm({
  client,
  study,
  userEmail,
  onClose,
  onSaved,
  routerDraft,
}: TOfflineReportDialogProps & { routerDraft: TReportDraft | null }) {
  const [report, setReport] = useState(study.report);
  const saved = { name: report?.name ?? study.studyDescription ?? '', content: report?.content ?? '' };
  const locked = report?.state === 'CONFLICT' || report?.signedOff === true;
  const draftKey = userEmail ? offlineDraftKey(client.baseUrl, study.studyInstanceUid, userEmail) : null;
  // The newer of what this device and the router kept of text typed and not saved (a closed tab,
  // a closed dialog, a lost sign-in, another PC), read once at opening. Taken back at once when the
  // router's text has not moved since it was typed; offered when the router has a newer version.
  const [keptCopy, setKept] = useState(() => {
    const copy = draftKey && !locked ? newerDraft(readDraftAt(draftKey), routerDraft) : null;
    if (copy && copy.draft.name === saved.name && copy.draft.content === saved.content) {
      clearDraftAt(draftKey!);
      return null;
    }
    return copy;
  });
  const kept = keptCopy?.draft ?? null;
  const keptWhere = keptCopy?.from === 'SERVER' ? 'on the router' : 'on this device';
  // The router's copy follows the device's after a rest; what is pending goes when the dialog closes.
  const pendingDraft = useRef<{ timer: number; send: () => void } | null>(null);
  const cancelRouterDraft = () => {
    if (pendingDraft.current) window.clearTimeout(pendingDraft.current.timer);
    pendingDraft.current = null;
  };
  const toRouterSoon = (send: () => Promise<unknown>) => {
    cancelRouterDraft();
    const once = () => {
      pendingDraft.current = null;
      // Best-effort: the device copy holds the text meanwhile.
      send().catch(() => undefined);
    };
    pendingDraft.current = { timer: window.setTimeout(once, ROUTER_DRAFT_DELAY_MS), send: once };
  };
  useEffect(
    () => () => {
      const pending = pendingDraft.current;
      if (pending) {
        window.clearTimeout(pending.timer);
        pending.send();
      }
    },
    [],
  );
  const takenAtOnce = kept !== null && kept.baseVersion === (report?.localVersion ?? null);
  const [notice, setNotice] = useState<'restored' | 'older' | null>(
    kept ? (takenAtOnce ? 'restored' : 'older') : null,
  );
  const [name, setName] = useState(takenAtOnce ? kept.name : saved.name);
  const [content, setContent] = useState(takenAtOnce ? kept.content : saved.content);
  const [editor, setEditor] = useState<Editor | null>(null);
  const [versionsOpen, setVersionsOpen] = useState(false);
  const versions = useQuery({
    queryKey: ['offline-versions', client.baseUrl, study.studyInstanceUid, report?.localVersion ?? 0],
    queryFn: () => client.offlineVersions(study.studyInstanceUid),
    enabled: versionsOpen,
  });
  const unsaved = name !== saved.name || content !== saved.content;
  const uid = study.studyInstanceUid;
  /** Every change goes to this device at once and to the router after a rest; a text equal to the router's saved one needs no copy. */
  const keep = (next: { name: string; content: string }) => {
    if (!draftKey) return;
    const baseVersion = report?.localVersion ?? null;
    if (next.name === saved.name && next.content === saved.content) {
      clearDraftAt(draftKey);
      toRouterSoon(() => client.deleteOfflineDraft(uid));
    } else {
      writeDraftAt(draftKey, { ...next, baseVersion, updatedAt: new Date().toISOString() });
      toRouterSoon(() => client.saveOfflineDraft({ studyInstanceUid: uid, ...next, baseVersion }));
    }
  };
  /** Both copies go: the text was saved, or the doctor discarded it. */
  const dropCopies = () => {
    cancelRouterDraft();
    if (draftKey) clearDraftAt(draftKey);
  };
  const showText = (text: { name: string; content: string }) => {
    setName(text.name);
    setContent(text.content);
    editor?.commands.setContent(text.content, { emitUpdate: false });
  };
  const save = useMutation({
    // The router removes its copy with the save; one pending must not bring it back.
    onMutate: cancelRouterDraft,
    mutationFn: (signOff: boolean) =>
      client.saveOfflineReport({
        studyInstanceUid: study.studyInstanceUid,
        name,
        content,
        signOff,
        baseLocalVersion: report?.localVersion ?? null,
      }),
    onSuccess: () => {
      dropCopies();
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
          <KeptTextNotice
            severity="info"
            action="Discard it"
            onAction={() => {
              showText(saved);
              dropCopies();
              void client.deleteOfflineDraft(uid).catch(() => undefined);
              setKept(null);
              setNotice(null);
            }}
          >
            Restored the text you typed {keptWhere} on {formatDisplayTime(kept.updatedAt)} and had not saved.
          </KeptTextNotice>
        )}
        {notice === 'older' && kept && (
          <KeptTextNotice
            severity="warning"
            action="Restore it"
            onAction={() => {
              showText(kept);
              keep(kept);
              setNotice('restored');
            }}
          >
            {keptCopy?.from === 'SERVER' ? 'The router' : 'This device'} kept text you typed on{' '}
            {formatDisplayTime(kept.updatedAt)} and had not saved, from an earlier version: the router now has
            a newer one.
          </KeptTextNotice>
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
        <Button disabled={report === null} onClick={() => setVersionsOpen(true)} sx={{ mr: 'auto' }}>
          Versions
        </Button>
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
      {versionsOpen &&
        (versions.isError ? (
          <Alert severity="error" onClose={() => setVersionsOpen(false)}>
            {errorText(versions.error)}
          </Alert>
        ) : (
          <VersionListDialog
            open={versions.isSuccess}
            refs={offlineVersionRefs(versions.data ?? [])}
            note="The versions this router keeps of the report. A version the cloud took and a newer one replaced is in the cloud's versions."
            onClose={() => setVersionsOpen(false)}
          />
        ))}
    </Dialog>
  );
}
