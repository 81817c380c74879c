import CloseIcon from '@mui/icons-material/Close';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { TRAINING_VIDEOS } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { TRAINING_VIDEOS_QUERY_KEY, fetchTrainingVideos, trainingVideoUrl } from './faq-api';

export const FAQ_TEXTS = {
  title: 'Support Videos',
  heading: 'Frequently asked questions',
  close: 'Close the FAQ',
  contents: 'Questions',
  notRecorded: 'The video of this answer has not been recorded on this server yet.',
  loadFailed: 'The list of videos could not be loaded; the answers are below.',
} as const;

/**
 * The full-screen FAQ with the 12 training videos (spec-core §2; drawer 'Support Videos'; issue 29
 * §7). Every question and answer shows always; a video plays where this server has its recording
 * (modules/training-videos). A full-screen dialog: focus stays in it and Escape closes it.
 */
export default function FaqPage() {
  const navigate = useNavigate();
  const recorded = useQuery({
    queryKey: TRAINING_VIDEOS_QUERY_KEY,
    queryFn: ({ signal }) => fetchTrainingVideos(signal),
  });
  const has = new Set(recorded.data?.videos.map((v) => v.id) ?? []);
  const close = () => {
    // Back where the user came from; opened on its own, the user's first screen.
    if (window.history.length > 1) void navigate(-1);
    else void navigate('/user/get-route');
  };

  return (
    <Dialog fullScreen open onClose={close} aria-labelledby="faq-title">
      <AppBar position="sticky" color="default" elevation={1}>
        <Toolbar>
          <Typography id="faq-title" variant="h6" component="h1" sx={{ flex: 1 }}>
            {FAQ_TEXTS.title}
          </Typography>
          <IconButton edge="end" aria-label={FAQ_TEXTS.close} onClick={close}>
            <CloseIcon />
          </IconButton>
        </Toolbar>
      </AppBar>
      <Box sx={{ display: 'flex', gap: 3, p: { xs: 1.5, md: 3 }, alignItems: 'flex-start' }}>
        <Box
          component="nav"
          aria-label={FAQ_TEXTS.contents}
          sx={{
            width: 260,
            flexShrink: 0,
            position: 'sticky',
            top: 80,
            display: { xs: 'none', md: 'block' },
          }}
        >
          <List dense>
            {TRAINING_VIDEOS.map((video) => (
              <ListItemButton key={video.id} component="a" href={`#faq-${video.id}`}>
                <ListItemText primary={video.title} />
              </ListItemButton>
            ))}
          </List>
        </Box>
        <Box sx={{ flex: 1, minWidth: 0, maxWidth: 960 }}>
          <Typography variant="h5" component="h2" sx={{ mb: 2 }}>
            {FAQ_TEXTS.heading}
          </Typography>
          {recorded.isError && (
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {FAQ_TEXTS.loadFailed}
            </Typography>
          )}
          {TRAINING_VIDEOS.map((video) => (
            <Paper
              key={video.id}
              id={`faq-${video.id}`}
              component="section"
              aria-labelledby={`faq-${video.id}-title`}
              variant="outlined"
              sx={{ p: 2, mb: 2, scrollMarginTop: 80 }}
            >
              <Typography id={`faq-${video.id}-title`} variant="h6" component="h3">
                {video.title}
              </Typography>
              <Typography variant="subtitle2" component="p" color="text.secondary" sx={{ mb: 1 }}>
                {video.question}
              </Typography>
              <Typography variant="body2" sx={{ mb: 1.5 }}>
                {video.answer}
              </Typography>
              {has.has(video.id) ? (
                <Box
                  component="video"
                  controls
                  preload="metadata"
                  src={trainingVideoUrl(video.id)}
                  aria-label={`${video.title} (training video)`}
                  sx={{ width: '100%', maxWidth: 800, borderRadius: 1, bgcolor: 'black' }}
                />
              ) : (
                recorded.isSuccess && (
                  <Typography variant="caption" color="text.secondary">
                    {FAQ_TEXTS.notRecorded}
                  </Typography>
                )
              )}
            </Paper>
          ))}
        </Box>
      </Box>
    </Dialog>
  );
}
