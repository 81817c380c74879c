import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  compareReportVersions,
  type TDiffSegment,
  type TReport,
  type TReportVersion,
  type TReportVersionKind,
} from '@radflow/core';
import { useId, useMemo, useState } from 'react';
import { formatTimestamp } from '../../lib/format';

const KIND_LABELS: Record<TReportVersionKind, string> = {
  SAVE: 'Saved',
  SIGN_OFF: 'Signed off',
  ADDENDUM: 'Addendum',
};

/** One row of the dialog: a version, its label in the pickers, and where it stands. */
export interface TVersionRef {
  key: string;
  label: string;
  /** The Report column: the version's name, or what kind of text it is (an addendum). */
  reportLabel: string;
  /** The Kind column. */
  kindLabel: string;
  /** Versions of the main report are compared by default (not an addendum's, not a set-aside one). */
  main: boolean;
  version: Pick<TReportVersion, 'version' | 'content' | 'savedBy' | 'savedByName' | 'savedAt'>;
}

function versionRefsOf(reports: readonly TReport[]): TVersionRef[] {
  return reports.flatMap((report) =>
    report.versions.map((version) => ({
      key: `${report.id}:${version.version}`,
      label: `${report.isAddendum ? `${report.name} ` : ''}v${version.version} · ${KIND_LABELS[version.kind]} · ${formatTimestamp(version.savedAt)}`,
      reportLabel: report.isAddendum ? 'Addendum' : version.name,
      kindLabel: KIND_LABELS[version.kind],
      main: !report.isAddendum,
      version,
    })),
  );
}

/** One side of the compare: the unchanged words and this side's changes, marked. */
function DiffSide({
  segments,
  side,
  label,
}: {
  segments: TDiffSegment[];
  side: 'removed' | 'added';
  label: string;
}) {
  return (
    <Box
      aria-label={label}
      role="region"
      sx={{
        flex: 1,
        minWidth: 0,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        p: 1.5,
        whiteSpace: 'pre-wrap',
      }}
    >
      <Typography variant="subtitle2" gutterBottom>
        {label}
      </Typography>
      {segments
        .filter((s) => s.kind === 'same' || s.kind === side)
        .map((s, i) => {
          const text = `${s.text}${s.text.endsWith('\n') ? '' : ' '}`;
          if (s.kind === 'same') return <span key={i}>{text}</span>;
          return side === 'removed' ? (
            <Box component="del" key={i} sx={{ bgcolor: 'error.light', color: 'error.contrastText' }}>
              {text}
            </Box>
          ) : (
            <Box
              component="ins"
              key={i}
              sx={{ bgcolor: 'success.light', color: 'success.contrastText', textDecoration: 'none' }}
            >
              {text}
            </Box>
          );
        })}
    </Box>
  );
}

/**
 * Every saved version (version, kind, who, when) of the row's reports, and two of them side by side
 * with the changes marked (issue 7 §2).
 */
export function VersionsDialog({
  open,
  reports,
  onClose,
}: {
  open: boolean;
  reports: readonly TReport[];
  onClose: () => void;
}) {
  const refs = useMemo(() => versionRefsOf(reports), [reports]);
  return <VersionListDialog open={open} refs={refs} onClose={onClose} />;
}

/**
 * The dialog over any list of versions: the cloud's reports (above) or the versions a router keeps
 * of an offline report (pacs-router/OfflineReportDialog.tsx), so both compare the same way.
 */
export function VersionListDialog({
  open,
  refs,
  onClose,
  note,
}: {
  open: boolean;
  refs: readonly TVersionRef[];
  onClose: () => void;
  /** A line above the table (what the list holds). */
  note?: string;
}) {
  const titleId = useId();
  const mainRefs = refs.filter((r) => r.main);
  const [olderKey, setOlderKey] = useState<string | null>(null);
  const [newerKey, setNewerKey] = useState<string | null>(null);
  const older = refs.find((r) => r.key === olderKey) ?? mainRefs[mainRefs.length - 2] ?? refs[0] ?? null;
  const newer = refs.find((r) => r.key === newerKey) ?? mainRefs[mainRefs.length - 1] ?? refs[0] ?? null;
  const diff = useMemo(
    () => (older && newer ? compareReportVersions(older.version.content, newer.version.content) : null),
    [older, newer],
  );

  const picker = (label: string, value: TVersionRef | null, set: (key: string) => void) => (
    <TextField
      select
      size="small"
      label={label}
      value={value?.key ?? ''}
      onChange={(e) => set(e.target.value)}
      sx={{ minWidth: 260 }}
    >
      {refs.map((r) => (
        <MenuItem key={r.key} value={r.key}>
          {r.label}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="lg">
      <DialogTitle id={titleId}>Report versions</DialogTitle>
      <DialogContent>
        {note && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {note}
          </Typography>
        )}
        {refs.length === 0 ? (
          <Typography>No version has been saved yet.</Typography>
        ) : (
          <>
            <Table size="small" aria-label="Versions">
              <TableHead>
                <TableRow>
                  <TableCell>Report</TableCell>
                  <TableCell>Version</TableCell>
                  <TableCell>Kind</TableCell>
                  <TableCell>Saved by</TableCell>
                  <TableCell>Saved at</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {refs.map((r) => (
                  <TableRow key={r.key}>
                    <TableCell>{r.reportLabel}</TableCell>
                    <TableCell>{r.version.version}</TableCell>
                    <TableCell>{r.kindLabel}</TableCell>
                    <TableCell>{r.version.savedByName ?? r.version.savedBy ?? '—'}</TableCell>
                    <TableCell>{formatTimestamp(r.version.savedAt)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <Typography variant="h6" sx={{ mt: 2, mb: 1 }}>
              Compare
            </Typography>
            <Stack direction="row" spacing={2} sx={{ mb: 2 }}>
              {picker('Older version', older, setOlderKey)}
              {picker('Newer version', newer, setNewerKey)}
            </Stack>
            {diff ? (
              <>
                {diff.coarse ? (
                  <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                    These versions differ too much to mark word by word: the changed part is shown whole.
                  </Typography>
                ) : null}
                <Stack direction="row" spacing={2}>
                  <DiffSide
                    segments={diff.segments}
                    side="removed"
                    label={`Older: v${older?.version.version ?? ''}`}
                  />
                  <DiffSide
                    segments={diff.segments}
                    side="added"
                    label={`Newer: v${newer?.version.version ?? ''}`}
                  />
                </Stack>
              </>
            ) : null}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
