import type { SvgIconComponent } from '@mui/icons-material';
import AddPhotoAlternateIcon from '@mui/icons-material/AddPhotoAlternateOutlined';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CallSplitIcon from '@mui/icons-material/CallSplit';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DescriptionIcon from '@mui/icons-material/DescriptionOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import GraphicEqIcon from '@mui/icons-material/GraphicEq';
import FactCheckIcon from '@mui/icons-material/FactCheckOutlined';
import HistoryIcon from '@mui/icons-material/HistoryOutlined';
import LocalOfferIcon from '@mui/icons-material/LocalOfferOutlined';
import LockOpenIcon from '@mui/icons-material/LockOpenOutlined';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import NotificationsIcon from '@mui/icons-material/NotificationsOutlined';
import PersonAddIcon from '@mui/icons-material/PersonAddAlt1Outlined';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import PriorityHighIcon from '@mui/icons-material/PriorityHigh';
import QrCodeIcon from '@mui/icons-material/QrCode2';
import ReplayIcon from '@mui/icons-material/Replay';
import ReportProblemIcon from '@mui/icons-material/ReportProblemOutlined';
import ShareIcon from '@mui/icons-material/ShareOutlined';
import VisibilityIcon from '@mui/icons-material/VisibilityOutlined';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { WORKLIST_MESSAGES, type TStudyListKind, type TStudyListRow } from '@radflow/core';
import { Suspense, useState, type ReactElement } from 'react';
import { useFeedback } from '../../components/feedback/feedback-context';
import { useServerCall } from '../../lib/server-call';
import type { TStudyDialogProps } from './dialog-props';
import * as Dialogs from './lazy-dialogs';
import { DownloadedReportFlag } from '../report-documents/DownloadedReportFlag';
import {
  ROW_ACTION_LABELS,
  isStateAction,
  offeredRowActions,
  splitInlineActions,
  urgentLabel,
  type TOfferedAction,
  type TRowActionKey,
  type TStateActionKey,
} from './row-actions';
import { STATE_ACTIONS, confirmTextOf } from './state-actions';
import { runStateAction } from './study-actions.api';
import { useActor, useOpenStudy, useStudiesChanged } from './use-study-actions';
import type { TTourTarget } from '../tour/tour-steps';
import { openWhenLoaded, preloadWhenIdle, preloadable } from '../../lib/preloadable';

const ICONS: Record<TRowActionKey, ReactElement> = {
  view: <VisibilityIcon fontSize="small" />,
  report: <DescriptionIcon fontSize="small" />,
  editDetails: <EditIcon fontSize="small" />,
  attachments: <AttachFileIcon fontSize="small" />,
  audio: <GraphicEqIcon fontSize="small" />,
  share: <ShareIcon fontSize="small" />,
  assignDoctor: <PersonAddIcon fontSize="small" />,
  assignAuditor: <FactCheckIcon fontSize="small" />,
  history: <HistoryIcon fontSize="small" />,
  notifications: <NotificationsIcon fontSize="small" />,
  tags: <LocalOfferIcon fontSize="small" />,
  qrCode: <QrCodeIcon fontSize="small" />,
  print: <PrintIcon fontSize="small" />,
  urgent: <PriorityHighIcon fontSize="small" />,
  delete: <DeleteIcon fontSize="small" />,
  split: <CallSplitIcon fontSize="small" />,
  unlock: <LockOpenIcon fontSize="small" />,
  rework: <ReplayIcon fontSize="small" />,
};

// The audio recordings dialog (issue 7 §3) loads on first open, like the study dialogs.
const AudioRecordingsDialog = preloadable(() => import('../report-audio/AudioRecordingsDialog'));
// The report download menu too: the list's first load stays within its budget (bench/web-bundle.ts).
const DownloadReportMenu = preloadable(() =>
  import('../report-documents/DownloadReportMenu').then((m) => ({ default: m.DownloadReportMenu })),
);

/** The actions that open a dialog, and which one. */
const DIALOGS = {
  editDetails: Dialogs.EditStudyDetailsDialog,
  attachments: Dialogs.AttachmentsDialog,
  audio: AudioRecordingsDialog,
  share: Dialogs.ShareStudyDialog,
  assignDoctor: Dialogs.AssignDoctorDialog,
  assignAuditor: Dialogs.AssignAuditorDialog,
  history: Dialogs.StudyHistoryDialog,
  notifications: Dialogs.NotificationTimelineDialog,
  tags: Dialogs.TagDialog,
  qrCode: Dialogs.QrCodePrintDialog,
} as const satisfies Partial<Record<TRowActionKey, React.ComponentType<TStudyDialogProps>>>;
type TDialogKey = keyof typeof DIALOGS;

const isDialogAction = (key: TRowActionKey): key is TDialogKey => key in DIALOGS;

const labelOf = (key: TRowActionKey, row: TStudyListRow) =>
  key === 'urgent' ? urgentLabel(row) : ROW_ACTION_LABELS[key];

/** A warning mark on the row (reworked, new images after sign-off, re-signed after print). */
function RowFlag({ Icon, title }: { Icon: SvgIconComponent; title: string }) {
  return (
    <Tooltip title={title}>
      <Icon titleAccess={title} color="warning" fontSize="small" sx={{ mx: 0.5 }} />
    </Tooltip>
  );
}

/** The row buttons the feature tour points at (features/tour). */
const TOUR_TARGETS: Partial<Record<TRowActionKey, TTourTarget>> = {
  view: 'open-viewer',
  report: 'open-report',
};

/**
 * The action buttons of one study row (spec-core §2 dialogs, §4 Actions offered): the list's most
 * used actions as buttons, the rest in an overflow menu ('More actions'), after the row's icon alerts
 * (reworked; signed off again after printing). What is offered is core's
 * rules (row-actions.ts), the same the server answers 403 with. State actions confirm first, then
 * toast and refresh; dialogs load on first open.
 */
export function StudyRowActions({
  row,
  listKind,
  onChanged,
}: {
  row: TStudyListRow;
  listKind: TStudyListKind;
  onChanged: () => void;
}) {
  const actor = useActor();
  const openStudy = useOpenStudy();
  const { confirm, showInfo } = useFeedback();
  const changed = useStudiesChanged(onChanged);
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const [openDialog, setOpenDialog] = useState<TDialogKey | null>(null);
  // The Print action opens the download menu (spec-core §9 options) where its button is.
  const [downloadAnchor, setDownloadAnchor] = useState<HTMLElement | null>(null);
  const stateAction = useServerCall({
    // The row as it was when the action was chosen: its toast names what happened to that row.
    mutationFn: ({ key, row: acted }: { key: TStateActionKey; row: TStudyListRow }) =>
      runStateAction(STATE_ACTIONS[key].call, acted.id),
    onSuccess: (answer, { key, row: acted }) => {
      showInfo(STATE_ACTIONS[key].doneText(acted, answer));
      changed();
    },
  });
  const busy = stateAction.isPending;

  const { inline, menu } = splitInlineActions(offeredRowActions(actor, row), listKind);

  const runState = async (key: TStateActionKey) => {
    if (!(await confirm({ message: confirmTextOf(key) }))) return;
    stateAction.mutate({ key, row });
  };

  const run = (key: TRowActionKey, anchor: HTMLElement | null = null) => {
    setMenuAnchor(null);
    if (isDialogAction(key)) {
      openWhenLoaded(DIALOGS[key], () => setOpenDialog(key));
      return;
    }
    if (isStateAction(key)) {
      void runState(key);
      return;
    }
    switch (key) {
      case 'view':
      case 'report':
        openStudy(key, row);
        return;
      case 'print':
        setDownloadAnchor(anchor);
        return;
    }
  };

  const button = (action: TOfferedAction) => {
    const label = labelOf(action.key, row);
    return (
      <Tooltip key={action.key} title={label}>
        {/* A span keeps the tooltip working on a disabled button. */}
        <span>
          <IconButton
            size="small"
            aria-label={label}
            data-tour={TOUR_TARGETS[action.key]}
            disabled={!action.enabled || busy}
            onClick={(e) => run(action.key, e.currentTarget)}
            color={action.key === 'urgent' && row.urgent ? 'error' : 'default'}
          >
            {ICONS[action.key]}
          </IconButton>
        </span>
      </Tooltip>
    );
  };

  const Dialog = openDialog ? DIALOGS[openDialog] : null;

  return (
    <Stack direction="row" spacing={0.25} sx={{ alignItems: 'center', whiteSpace: 'nowrap' }}>
      {row.reworked && <RowFlag Icon={ReportProblemIcon} title={WORKLIST_MESSAGES.reworked} />}
      {row.newImagesAfterSignOffAt && (
        <RowFlag Icon={AddPhotoAlternateIcon} title={WORKLIST_MESSAGES.newImagesAfterSignOff} />
      )}
      {row.signedOffAfterPrint && <RowFlag Icon={PrintIcon} title={WORKLIST_MESSAGES.reSignedOff} />}
      {row.hasReports && <DownloadedReportFlag reportStatusId={row.id} />}
      {inline.map(button)}
      {menu.length > 0 && (
        <>
          <IconButton
            size="small"
            aria-label="More actions"
            aria-haspopup="menu"
            disabled={busy}
            onClick={(e) => {
              setMenuAnchor(e.currentTarget);
              // The menu offers these dialogs: load them while it is read.
              preloadWhenIdle(menu.flatMap(({ key }) => (isDialogAction(key) ? [DIALOGS[key]] : [])));
            }}
          >
            <MoreVertIcon fontSize="small" />
          </IconButton>
          <Menu anchorEl={menuAnchor} open={Boolean(menuAnchor)} onClose={() => setMenuAnchor(null)}>
            {menu.map((action) => (
              <MenuItem
                key={action.key}
                disabled={!action.enabled}
                onClick={() => run(action.key, menuAnchor)}
              >
                <ListItemIcon>{ICONS[action.key]}</ListItemIcon>
                <ListItemText>{labelOf(action.key, row)}</ListItemText>
              </MenuItem>
            ))}
          </Menu>
        </>
      )}
      {downloadAnchor && (
        <Suspense fallback={null}>
          <DownloadReportMenu row={row} anchorEl={downloadAnchor} onClose={() => setDownloadAnchor(null)} />
        </Suspense>
      )}
      {Dialog && (
        <Suspense fallback={null}>
          <Dialog row={row} onClose={() => setOpenDialog(null)} onChanged={changed} />
        </Suspense>
      )}
    </Stack>
  );
}
