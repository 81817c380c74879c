import ChatIcon from '@mui/icons-material/ChatBubbleOutlineOutlined';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import type { TStudyListRow } from '@radflow/core';
import { Suspense, useState } from 'react';
import { openWhenLoaded, preloadable } from '../../lib/preloadable';

// The panel loads on first open: the list's first load stays within its bundle budget.
const ChatDrawer = preloadable(() => import('./ChatDrawer'));

/** The row's chat button, with its thread's unseen count as a badge (issue 23 §1). */
export function ChatRowButton({ row, unseen }: { row: TStudyListRow; unseen: number }) {
  const [open, setOpen] = useState(false);
  const label = unseen > 0 ? `Chat (${unseen} unseen)` : 'Chat';
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          size="small"
          aria-label={label}
          onClick={() => openWhenLoaded(ChatDrawer, () => setOpen(true))}
        >
          <Badge badgeContent={unseen} color="error" max={99} data-testid={`chat-unseen-${row.id}`}>
            <ChatIcon fontSize="small" />
          </Badge>
        </IconButton>
      </Tooltip>
      {open && (
        <Suspense fallback={null}>
          <ChatDrawer
            study={{ id: row.id, apiVersion: row.apiVersion }}
            title={row.patientName || `Study ${row.id}`}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </>
  );
}
