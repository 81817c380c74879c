import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import {
  REPORT_LEFT_OUT_MESSAGES,
  type TReportDownloadOption,
  type TStudyListRow,
  missingDocumentExtras,
  offeredDownloadOptions,
} from '@radflow/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { STUDIES_QUERY_KEY } from '../../api/archive';
import { useFeedback } from '../../components/feedback/feedback-context';
import { useServerCall } from '../../lib/server-call';
import { useSignedInSession } from '../auth/session';
import { formatTimestamp } from '../../lib/format';
import { DOWNLOADED_HERE, noteDownloaded, useDownloadedAt } from './downloaded-reports';
import { printPdf } from './print-report';
import {
  type TDocumentRow,
  documentExtrasQueryKey,
  fetchDocumentExtras,
  fetchReportDocument,
  saveFile,
} from './report-documents.api';

export type TDownloadRow = TDocumentRow & Pick<TStudyListRow, 'status' | 'hasReports'>;

export interface TDownloadReportMenuProps {
  row: TDownloadRow;
  /**
   * Where the menu opens. Left out, the menu brings its own 'Download report' button (the editor);
   * given, the caller's button opens it (the study list's Print action).
   */
  anchorEl?: HTMLElement | null;
  onClose?: () => void;
  /** In the report editor: spec-core §5 hides Word from centers there. */
  isEditing?: boolean;
  /** The editor's current text, sent as customHtml (users who may edit the report). */
  getCustomHtml?: () => string | null;
}

export const DOWNLOAD_BUTTON_LABEL = 'Download report';
export { DOWNLOADED_HERE };

/**
 * spec-core §9 download options (Print, PDF, PDF with header, PDF with images, PDF with header and
 * images, Word) for one study: which are shown and enabled is core's offeredDownloadOptions, the rule
 * the server answers with. Print prints from a hidden frame; the others save the file under the
 * server's name.
 */
export function DownloadReportMenu({
  row,
  anchorEl,
  onClose,
  isEditing,
  getCustomHtml,
}: TDownloadReportMenuProps) {
  const session = useSignedInSession();
  const queryClient = useQueryClient();
  const { showInfo } = useFeedback();
  const [ownAnchor, setOwnAnchor] = useState<HTMLElement | null>(null);
  const controlled = anchorEl !== undefined;
  const anchor = controlled ? anchorEl : ownAnchor;
  const close = () => (controlled ? onClose?.() : setOwnAnchor(null));
  // issue 21 §7: what 'with header' / 'with images' can add, read when the menu opens. Unknown
  // (loading, failed), the options stay: the server's x-report-left-out then says what was missing.
  const extras = useQuery({
    queryKey: documentExtrasQueryKey(row.id),
    queryFn: ({ signal }) => fetchDocumentExtras(row.id, signal),
    enabled: Boolean(anchor),
    staleTime: 30_000,
    retry: false,
  });
  const downloadedAt = useDownloadedAt(session.user.identifier, row.id);
  const missingFor = (option: TReportDownloadOption) =>
    extras.data ? missingDocumentExtras(option, extras.data) : [];

  const offered = offeredDownloadOptions({
    roles: session.roles,
    flags: session.flags,
    teleUser: session.teleUser,
    row,
    isEditing: isEditing ?? false,
  });

  const download = useServerCall({
    mutationFn: (option: TReportDownloadOption) =>
      fetchReportDocument(option, row, { customHtml: getCustomHtml?.() ?? null }),
    onSuccess: ({ blob, fileName, leftOut }, option) => {
      noteDownloaded(session.user.identifier, row.id);
      if (leftOut.length > 0)
        showInfo(leftOut.map((missing) => REPORT_LEFT_OUT_MESSAGES[missing]).join('. '));
      if (option.print) {
        printPdf(blob);
        // The print clears Reprint Needed: the lists show it.
        void queryClient.invalidateQueries({ queryKey: STUDIES_QUERY_KEY });
      } else saveFile(blob, fileName);
    },
  });
  const busy = download.isPending;

  const choose = (option: TReportDownloadOption) => {
    close();
    download.mutate(option);
  };

  if (offered.length === 0) return null;
  return (
    <>
      {!controlled && (
        <Tooltip title={DOWNLOAD_BUTTON_LABEL}>
          <span>
            <IconButton
              size="small"
              aria-label={DOWNLOAD_BUTTON_LABEL}
              aria-haspopup="menu"
              disabled={busy || !offered.some((o) => o.enabled)}
              onClick={(e) => setOwnAnchor(e.currentTarget)}
            >
              {busy ? <CircularProgress size={18} /> : <DownloadIcon fontSize="small" />}
            </IconButton>
          </span>
        </Tooltip>
      )}
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={close}>
        {downloadedAt && (
          <ListSubheader sx={{ lineHeight: 2.5 }}>
            {`${DOWNLOADED_HERE} ${formatTimestamp(downloadedAt)}`}
          </ListSubheader>
        )}
        {offered.map(({ option, enabled }) => {
          const missing = missingFor(option);
          return (
            <MenuItem
              key={option.key}
              disabled={!enabled || busy || missing.length > 0}
              onClick={() => choose(option)}
            >
              <ListItemIcon>
                {option.print ? <PrintIcon fontSize="small" /> : <DownloadIcon fontSize="small" />}
              </ListItemIcon>
              <ListItemText
                primary={option.label}
                // Why it is off and where to set what is missing.
                secondary={
                  missing.length > 0 ? missing.map((m) => REPORT_LEFT_OUT_MESSAGES[m]).join('. ') : null
                }
                slotProps={{ secondary: { sx: { whiteSpace: 'normal', maxWidth: 320 } } }}
              />
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}
