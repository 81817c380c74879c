import AttachFileIcon from '@mui/icons-material/AttachFile';
import ImageIcon from '@mui/icons-material/ImageOutlined';
import SendIcon from '@mui/icons-material/Send';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  AUTO_REFRESH_MS,
  CHAT_ASSIGNMENTS,
  CHAT_MESSAGES,
  CHAT_MESSAGE_MAX_LENGTH,
  ZChatText,
  ZViewerAnnotations,
  chatTextParts,
  withChatMessage,
  type TChatAssignment,
  type TChatMember,
  type TChatMessage,
  type TChatReference,
  type TChatReferenceInput,
} from '@radflow/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { apiRequest } from '../../api/client';
import { formatTimestamp } from '../../lib/format';
import { useSignedInSession } from '../auth/session';
import { attachmentDownloadPath, fetchAttachments } from '../study-actions/study-actions.api';
import {
  CHAT_UNSEEN_KEY,
  chatMembersKey,
  chatThreadKey,
  fetchMembers,
  fetchThread,
  markThreadSeen,
  sendChatMessage,
} from './chat-api';
import { insertMention, matchingMembers, mentionQueryAt, mentionedIds } from './mention-input';

const SIDE_LABEL: Record<TChatMessage['memberType'], string> = {
  center: 'Center',
  radiologist: 'Radiologist',
  admin: 'Admin',
};

/** The chat assignment options (spec-core §7) as the 'To' choice names them. */
const TO_LABEL: Record<TChatAssignment, string> = {
  NONE: 'Everyone',
  center: 'Center',
  radiologist: 'Radiologist',
  admin: 'Admin',
};

/** The study a panel is about: its row id, and for the viewer link its API version. */
export interface TChatStudy {
  id: number;
  apiVersion?: number;
}

/**
 * The viewer at one image (spec-core §2 route; `series`, `sop` and `frame`: viewer open-at-image.ts).
 * `d=1`: a chat image is a frame someone marked with the diagnostic viewer's tools, which is the one
 * that opens at an image (VIEWER.md "Which viewer").
 */
export function imageLink(study: TChatStudy, ref: Extract<TChatReference, { kind: 'image' }>): string {
  const query = new URLSearchParams();
  if (study.apiVersion !== undefined) query.set('v', String(study.apiVersion));
  query.set('d', '1');
  query.set('series', ref.seriesInstanceUid);
  query.set('sop', ref.sopInstanceUid);
  query.set('frame', String(ref.frame));
  return `/viewer/${encodeURIComponent(ref.studyInstanceUid)}/${study.id}?${query.toString()}`;
}

/** A reference as a link: the attachment downloads, the image opens in the viewer. */
function ReferenceLink({ study, reference }: { study: TChatStudy; reference: TChatReference }) {
  if (reference.kind === 'attachment') {
    return (
      <Link
        href={attachmentDownloadPath(reference.attachmentKind, study.id, reference)}
        target="_blank"
        rel="noopener"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
      >
        <AttachFileIcon fontSize="inherit" />
        {reference.fileName}
      </Link>
    );
  }
  return (
    <Link
      component={RouterLink}
      to={imageLink(study, reference)}
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
    >
      <ImageIcon fontSize="inherit" />
      {`Image ${reference.sopInstanceUid.slice(-12)}, frame ${reference.frame}`}
    </Link>
  );
}

/** One message: who (e-mail and side), when, and the text as text with its @mentions marked. */
function MessageItem({ m, mine, study }: { m: TChatMessage; mine: boolean; study: TChatStudy }) {
  const parts = chatTextParts(
    m.message.message,
    m.message.mentions.map((x) => x.name),
  );
  return (
    <Box
      data-testid="chat-message"
      sx={{ display: 'flex', flexDirection: 'column', alignItems: mine ? 'flex-end' : 'flex-start' }}
    >
      <Typography variant="caption" color="text.secondary">
        {mine ? 'You' : m.createdBy} · {SIDE_LABEL[m.memberType]}
        {m.message.assignedTo !== 'NONE' && ` → ${TO_LABEL[m.message.assignedTo]}`} ·{' '}
        {formatTimestamp(m.messageUpdatedAt)}
      </Typography>
      <Paper
        variant="outlined"
        sx={{
          px: 1,
          py: 0.5,
          maxWidth: '85%',
          bgcolor: mine ? 'action.selected' : 'background.paper',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
        }}
      >
        <Typography variant="body2" component="div">
          {parts.map((p, i) =>
            p.kind === 'mention' ? (
              <Box
                key={i}
                component="span"
                data-testid="chat-mention"
                sx={{ color: 'primary.main', fontWeight: 600 }}
              >
                {p.text}
              </Box>
            ) : (
              <span key={i}>{p.text}</span>
            ),
          )}
        </Typography>
        {m.message.reference && (
          <Box sx={{ mt: 0.5 }}>
            <ReferenceLink study={study} reference={m.message.reference} />
          </Box>
        )}
      </Paper>
    </Box>
  );
}

type TPicked = { input: TChatReferenceInput; label: string };

/** The study's attachments and key images, to point a message at one. */
function ReferencePicker({ study, onPick }: { study: TChatStudy; onPick: (picked: TPicked) => void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const files = useQuery({
    queryKey: ['chat', study.id, 'attachments'],
    queryFn: ({ signal }) => fetchAttachments(study.id, signal),
    enabled: anchor !== null,
  });
  const keyImages = useQuery({
    queryKey: ['chat', study.id, 'key-images'],
    queryFn: ({ signal }) =>
      apiRequest(`/api/viewer/${study.id}/annotations`, { schema: ZViewerAnnotations, signal, quiet: true }),
    enabled: anchor !== null,
  });
  const attachments = files.data
    ? [...files.data.historyAttachment, ...files.data.filmAttachment, ...files.data.reportAttachment]
    : [];
  const images = keyImages.data?.keyImages ?? [];
  const pick = (picked: TPicked) => {
    setAnchor(null);
    onPick(picked);
  };
  return (
    <>
      <Tooltip title="Refer to a file or key image">
        <IconButton
          size="small"
          aria-label="Refer to a file or key image"
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <AttachFileIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {attachments.length + images.length === 0 && (
          <MenuItem disabled>
            {files.isPending || keyImages.isPending ? 'Loading…' : 'No files or key images'}
          </MenuItem>
        )}
        {attachments.map((a) => (
          <MenuItem
            key={`a${a.id}`}
            onClick={() => pick({ input: { kind: 'attachment', attachmentId: a.id }, label: a.fileName })}
          >
            <AttachFileIcon fontSize="small" sx={{ mr: 1 }} />
            {a.fileName}
          </MenuItem>
        ))}
        {images.map((k) => (
          <MenuItem
            key={`${k.sopInstanceUid}/${k.frameNumber}`}
            onClick={() =>
              pick({
                input: { kind: 'image', sopInstanceUid: k.sopInstanceUid, frame: k.frameNumber },
                label: `Key image, frame ${k.frameNumber}`,
              })
            }
          >
            <ImageIcon fontSize="small" sx={{ mr: 1 }} />
            {`Key image …${k.sopInstanceUid.slice(-8)}, frame ${k.frameNumber}`}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/**
 * The chat of one study (issue 23 §1; spec-core §1, §5, §7): the thread oldest first, own messages
 * to the right; the thread is marked seen when shown; Enter sends, Shift+Enter is a new line; '@'
 * offers the people of the study's conversation; a message may point at a file or key image of the
 * study. Text is drawn as text, never as HTML.
 */
export function ChatPanel({ study }: { study: TChatStudy }) {
  const session = useSignedInSession();
  const me = session.user.email;
  const autoRefresh = session.preferences.UI_PREFERENCES.autoRefresh;
  const queryClient = useQueryClient();
  const thread = useQuery({
    queryKey: chatThreadKey(study.id),
    queryFn: ({ signal }) => fetchThread(study.id, signal),
    refetchInterval: autoRefresh ? AUTO_REFRESH_MS : false,
  });
  const members = useQuery({
    queryKey: chatMembersKey(study.id),
    queryFn: ({ signal }) => fetchMembers(study.id, signal),
    staleTime: 60_000,
  });

  // Shown is seen: mark the thread, then the row badges ask again.
  const unseen = thread.data?.unseen ?? 0;
  const newestId = thread.data?.messages.at(-1)?.messageId;
  useEffect(() => {
    if (unseen === 0) return;
    void markThreadSeen(study.id)
      .then(() => queryClient.invalidateQueries({ queryKey: CHAT_UNSEEN_KEY }))
      .catch(() => undefined);
  }, [unseen, newestId, study.id, queryClient]);

  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [chosen, setChosen] = useState<TChatMember[]>([]);
  const [reference, setReference] = useState<TPicked | null>(null);
  const [assignedTo, setAssignedTo] = useState<TChatAssignment>('NONE');
  const [error, setError] = useState<string | null>(null);
  const [highlight, setHighlight] = useState(0);
  const input = useRef<HTMLTextAreaElement | null>(null);
  const bottom = useRef<HTMLDivElement | null>(null);

  const messages = thread.data?.messages ?? [];
  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length]);

  const send = useMutation({
    mutationFn: sendChatMessage,
    onSuccess: (sent) => {
      // Once, whether the live event of it came first or not.
      queryClient.setQueryData(chatThreadKey(study.id), (old: typeof thread.data) =>
        old ? withChatMessage(old, sent) : old,
      );
      void queryClient.invalidateQueries({ queryKey: chatThreadKey(study.id), exact: true });
      setText('');
      setChosen([]);
      setReference(null);
      setError(null);
    },
    onError: (failure) => setError(failure instanceof Error ? failure.message : String(failure)),
  });

  const typing = mentionQueryAt(text, caret);
  const offers = typing ? matchingMembers(members.data?.members ?? [], typing.query) : [];

  const choose = (member: TChatMember) => {
    if (!typing) return;
    const next = insertMention(text, typing.start, caret, member.name);
    setText(next.text);
    setCaret(next.caret);
    setChosen((list) => (list.some((m) => m.userId === member.userId) ? list : [...list, member]));
    setHighlight(0);
    requestAnimationFrame(() => input.current?.setSelectionRange(next.caret, next.caret));
  };

  const submit = () => {
    const parsed = ZChatText.safeParse(text);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? CHAT_MESSAGES.empty);
      return;
    }
    send.mutate({
      reportStatusId: study.id,
      assignedTo,
      message: parsed.data,
      mentions: mentionedIds(parsed.data, chosen),
      reference: reference?.input ?? null,
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (offers.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        setHighlight((h) => (h + step + offers.length) % offers.length);
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        choose(offers[Math.min(highlight, offers.length - 1)]!);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      if (!send.isPending) submit();
    }
  };

  const length = text.trim().length;
  const tooLong = length > CHAT_MESSAGE_MAX_LENGTH;

  return (
    <Box
      sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}
      data-testid="chat-panel"
    >
      <Stack spacing={1} sx={{ flex: 1, overflowY: 'auto', p: 1 }} aria-live="polite">
        {thread.isPending && <Typography variant="body2">Loading messages…</Typography>}
        {thread.isError && <Typography color="error">{thread.error.message}</Typography>}
        {thread.data && messages.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            No messages yet.
          </Typography>
        )}
        {messages.map((m) => (
          <MessageItem key={m.messageId} m={m} mine={m.createdBy === me} study={study} />
        ))}
        <div ref={bottom} />
      </Stack>
      <Box sx={{ p: 1, borderTop: 1, borderColor: 'divider', position: 'relative' }}>
        {offers.length > 0 && (
          <Paper elevation={4} sx={{ position: 'absolute', bottom: '100%', left: 8, right: 8, zIndex: 1 }}>
            <List dense role="listbox" aria-label="People to mention">
              {offers.map((m, i) => (
                <ListItemButton
                  key={m.userId}
                  role="option"
                  selected={i === highlight}
                  aria-selected={i === highlight}
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => choose(m)}
                >
                  <ListItemText primary={m.name} secondary={`${m.email} · ${SIDE_LABEL[m.memberType]}`} />
                </ListItemButton>
              ))}
            </List>
          </Paper>
        )}
        {reference && (
          <Chip
            size="small"
            sx={{ mb: 0.5 }}
            label={reference.label}
            onDelete={() => setReference(null)}
            aria-label={`Refers to ${reference.label}`}
          />
        )}
        <TextField
          select
          size="small"
          label="To"
          value={assignedTo}
          onChange={(e) => setAssignedTo(e.target.value as TChatAssignment)}
          sx={{ mb: 1, minWidth: 140 }}
        >
          {CHAT_ASSIGNMENTS.map((to) => (
            <MenuItem key={to} value={to}>
              {TO_LABEL[to]}
            </MenuItem>
          ))}
        </TextField>
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'flex-end' }}>
          <TextField
            inputRef={input}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setCaret(e.target.selectionStart ?? e.target.value.length);
              setHighlight(0);
              if (error) setError(null);
            }}
            onSelect={(e) => setCaret((e.target as HTMLTextAreaElement).selectionStart ?? 0)}
            onKeyDown={onKeyDown}
            placeholder="Write a message (@ to mention)"
            multiline
            maxRows={6}
            fullWidth
            size="small"
            slotProps={{ htmlInput: { 'aria-label': 'Message' } }}
            error={error !== null || tooLong}
            helperText={error ?? `${length}/${CHAT_MESSAGE_MAX_LENGTH}`}
          />
          <ReferencePicker study={study} onPick={setReference} />
          <Tooltip title="Send (Enter)">
            <span>
              <IconButton aria-label="Send" onClick={submit} disabled={send.isPending} color="primary">
                <SendIcon fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        </Stack>
      </Box>
    </Box>
  );
}
