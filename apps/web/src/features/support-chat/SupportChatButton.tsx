import SupportIcon from '@mui/icons-material/SupportAgentOutlined';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { SUPPORT_CHAT_TEXTS as T, offersSupportChat } from '@radflow/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useServerCall } from '../../lib/server-call';
import { useSignedInSession } from '../auth/session';
import { SUPPORT_CHAT_QUERY_KEY, fetchSupportThread, sendSupportMessage } from './support-chat-api';
import { SupportReplyForm, SupportThreadLog } from './SupportThreadView';

/**
 * The support chat of spec-core §2 Shell (issue 29 §6): a button in the top bar, only while the
 * group's enableSupportChatBot is on, opening the user's own thread with the platform's support.
 */
export function SupportChatButton() {
  const { roles, flags } = useSignedInSession();
  const [open, setOpen] = useState(false);
  if (!offersSupportChat(roles, flags.enableSupportChatBot)) return null;
  return (
    <>
      <Tooltip title={T.open}>
        <IconButton color="inherit" aria-label={T.open} onClick={() => setOpen(true)}>
          <SupportIcon />
        </IconButton>
      </Tooltip>
      <Drawer anchor="right" open={open} onClose={() => setOpen(false)}>
        {open && <SupportChatPanel />}
      </Drawer>
    </>
  );
}

function SupportChatPanel() {
  const queryClient = useQueryClient();
  const thread = useQuery({
    queryKey: SUPPORT_CHAT_QUERY_KEY,
    queryFn: ({ signal }) => fetchSupportThread(signal),
    // Support's answers arrive while the panel is open.
    refetchInterval: 15_000,
  });
  const send = useServerCall({
    mutationFn: ({ message }: { message: string; sent: () => void }) => sendSupportMessage(message),
    onSuccess: (answer, { sent }) => {
      queryClient.setQueryData(SUPPORT_CHAT_QUERY_KEY, answer);
      sent();
    },
  });

  return (
    <Box
      role="dialog"
      aria-label={T.title}
      sx={{ width: { xs: '100vw', sm: 380 }, height: '100%', display: 'flex', flexDirection: 'column', p: 2 }}
    >
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {T.title}
      </Typography>
      <SupportThreadLog
        label={T.title}
        messages={thread.data?.messages ?? []}
        emptyText={thread.isSuccess ? T.empty : null}
        isMine={(m) => !m.fromSupport}
        whoOf={(m) => (m.fromSupport ? T.fromSupport : T.you)}
      />
      <SupportReplyForm
        label={T.placeholder}
        sendLabel={T.send}
        isPending={send.isPending}
        onSend={(message, sent) => send.mutate({ message, sent })}
      />
    </Box>
  );
}
