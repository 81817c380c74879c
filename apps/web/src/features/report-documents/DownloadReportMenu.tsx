import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import { type TReportDownloadOption, type TStudyListRow, offeredDownloadOptions } from '@radflow/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { STUDIES_QUERY_KEY } from '../../api/archive';
import { useFeedback } from '../../components/feedback/feedback-context';
import { useSignedInSession } from '../auth/session';
import { printPdf } from './print-report';
import { type TDocumentRow, fetchReportDocument, saveFile } from './report-documents.api';

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
  const { showError } = useFeedback();
  const [ownAnchor, setOwnAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState(false);
  const controlled = anchorEl !== undefined;
  const anchor = controlled ? anchorEl : ownAnchor;
  const close = () => (controlled ? onClose?.() : setOwnAnchor(null));

  const offered = offeredDownloadOptions({
    roles: session.roles,
    flags: session.flags,
    teleUser: session.teleUser,
    row,
    isEditing: isEditing ?? false,
  });

  const choose = async (option: TReportDownloadOption) => {
    close();
    setBusy(true);
    try {
      const { blob, fileName } = await fetchReportDocument(option, row, {
        customHtml: getCustomHtml?.() ?? null,
      });
      if (option.print) {
        printPdf(blob);
        // The print clears Reprint Needed: the lists show it.
        void queryClient.invalidateQueries({ queryKey: STUDIES_QUERY_KEY });
      } else saveFile(blob, fileName);
    } catch (error) {
      // The API client has shown a refusal already.
      if (!(error instanceof ApiError)) showError(String(error));
    } finally {
      setBusy(false);
    }
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
        {offered.map(({ option, enabled }) => (
          <MenuItem key={option.key} disabled={!enabled || busy} onClick={() => void choose(option)}>
            <ListItemIcon>
              {option.print ? <PrintIcon fontSize="small" /> : <DownloadIcon fontSize="small" />}
            </ListItemIcon>
            <ListItemText>{option.label}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
