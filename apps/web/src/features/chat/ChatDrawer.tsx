import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { ChatPanel, type TChatStudy } from './ChatPanel';

/** The study's chat opened from its list row: a panel on the right, over the list. */
export default function ChatDrawer({
  study,
  title,
  onClose,
}: {
  study: TChatStudy;
  title: string;
  onClose: () => void;
}) {
  return (
    <Drawer
      anchor="right"
      open
      onClose={onClose}
      // Above the top bar (drawer + 1), like a dialog: its header and close button stay reachable.
      sx={{ zIndex: (t) => t.zIndex.modal }}
      slotProps={{ paper: { sx: { width: { xs: '100%', sm: 400 } }, 'aria-label': `Chat: ${title}` } }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', p: 1, borderBottom: 1, borderColor: 'divider' }}>
        <Typography variant="subtitle1" noWrap sx={{ flex: 1 }}>
          Chat · {title}
        </Typography>
        <IconButton aria-label="Close chat" onClick={onClose} size="small">
          <CloseIcon fontSize="small" />
        </IconButton>
      </Box>
      <Box sx={{ flex: 1, minHeight: 0 }}>
        <ChatPanel study={study} />
      </Box>
    </Drawer>
  );
}
