import ChatIcon from '@mui/icons-material/ChatBubbleOutlineOutlined';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ChatPanel, type TChatStudy } from './ChatPanel';

/**
 * The study's chat beside the report editor (issue 23 §1): a column the reader can fold away; it
 * stays in view while the report scrolls.
 */
export default function ReportChatAside({ study }: { study: TChatStudy }) {
  const [open, setOpen] = useState(true);
  if (!open) {
    return (
      <Button
        size="small"
        startIcon={<ChatIcon />}
        onClick={() => setOpen(true)}
        sx={{ alignSelf: 'flex-start' }}
      >
        Chat
      </Button>
    );
  }
  return (
    <Paper
      variant="outlined"
      component="aside"
      aria-label="Study chat"
      sx={{
        width: 360,
        flexShrink: 0,
        position: 'sticky',
        top: 80,
        height: 'calc(100vh - 120px)',
        display: 'flex',
        flexDirection: 'column',
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', px: 1, borderBottom: 1, borderColor: 'divider' }}>
        <Typography variant="subtitle2" sx={{ flex: 1 }}>
          Chat
        </Typography>
        <IconButton size="small" aria-label="Hide chat" onClick={() => setOpen(false)}>
          <ChevronRightIcon fontSize="small" />
        </IconButton>
      </Box>
      <Box sx={{ flex: 1, minHeight: 0 }}>
        <ChatPanel study={study} />
      </Box>
    </Paper>
  );
}
