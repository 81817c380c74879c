import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { SUPPORT_CHAT_TEXTS, SUPPORT_INBOX_TEXTS as T, type TSupportThreadSummary } from '@radflow/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { formatTimestamp } from '../../lib/format';
import { useServerCall } from '../../lib/server-call';
import {
  SUPPORT_THREADS_QUERY_KEY,
  answerUserThread,
  fetchSupportThreads,
  fetchUserThread,
  supportThreadQueryKey,
} from './support-chat-api';
import { SupportReplyForm, SupportThreadLog } from './SupportThreadView';

/** How often the inbox and the open thread look for new messages while shown. */
const POLL_MS = 15_000;

/**
 * Support's screen of the support chat (issue 29 §6): the users' threads, those waiting for an answer
 * first, and the chosen thread with a reply box. Only the platform's support opens it (menu and route
 * by core canAnswerSupport; the calls answer 403 to anyone else).
 */
export default function SupportInboxPage() {
  const threads = useQuery({
    queryKey: SUPPORT_THREADS_QUERY_KEY,
    queryFn: ({ signal }) => fetchSupportThreads(signal),
    refetchInterval: POLL_MS,
  });
  const [chosen, setChosen] = useState<TSupportThreadSummary | null>(null);
  const list = threads.data ?? [];

  return (
    <Box>
      <PageHeader title={T.title} />
      <Box
        sx={{ display: 'flex', gap: 2, flexDirection: { xs: 'column', md: 'row' }, alignItems: 'stretch' }}
      >
        <Paper variant="outlined" sx={{ width: { md: 360 }, flexShrink: 0 }}>
          <List aria-label={T.threads} dense>
            {threads.isSuccess && list.length === 0 && (
              <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
                {T.none}
              </Typography>
            )}
            {list.map((thread) => (
              <ListItemButton
                key={thread.userId}
                selected={chosen?.userId === thread.userId}
                onClick={() => setChosen(thread)}
              >
                <ListItemText
                  primary={`${thread.email} · ${thread.groupName}`}
                  secondary={`${formatTimestamp(thread.lastAt)} — ${thread.lastMessage}`}
                  slotProps={{ secondary: { noWrap: true } }}
                />
                <Chip
                  size="small"
                  sx={{ ml: 1 }}
                  color={thread.isAwaitingSupport ? 'warning' : 'default'}
                  label={thread.isAwaitingSupport ? T.awaiting : T.answered}
                />
              </ListItemButton>
            ))}
          </List>
        </Paper>
        <Paper
          variant="outlined"
          sx={{ flex: 1, p: 2, minHeight: 360, display: 'flex', flexDirection: 'column' }}
        >
          {chosen ? (
            <ThreadPane key={chosen.userId} thread={chosen} />
          ) : (
            <Typography color="text.secondary">{T.choose}</Typography>
          )}
        </Paper>
      </Box>
    </Box>
  );
}

function ThreadPane({ thread }: { thread: TSupportThreadSummary }) {
  const queryClient = useQueryClient();
  const key = supportThreadQueryKey(thread.userId);
  const messages = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => fetchUserThread(thread.userId, signal),
    refetchInterval: POLL_MS,
  });
  const answer = useServerCall({
    mutationFn: ({ message }: { message: string; sent: () => void }) =>
      answerUserThread({ userId: thread.userId, message }),
    onSuccess: (answered, { sent }) => {
      queryClient.setQueryData(key, answered);
      void queryClient.invalidateQueries({ queryKey: SUPPORT_THREADS_QUERY_KEY, exact: true });
      sent();
    },
  });
  const title = `${thread.email} · ${thread.groupName}`;
  return (
    <>
      <Typography variant="subtitle1" component="h2" sx={{ mb: 1, fontWeight: 600 }}>
        {title}
      </Typography>
      <SupportThreadLog
        label={title}
        messages={messages.data?.messages ?? []}
        emptyText={null}
        isMine={(m) => m.fromSupport}
        whoOf={(m) =>
          m.fromSupport ? `${SUPPORT_CHAT_TEXTS.fromSupport} (${m.senderEmail})` : m.senderEmail
        }
      />
      <SupportReplyForm
        label={T.reply}
        sendLabel={T.send}
        isPending={answer.isPending}
        onSend={(message, sent) => answer.mutate({ message, sent })}
      />
    </>
  );
}
