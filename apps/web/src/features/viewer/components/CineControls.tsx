import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Slider from '@mui/material/Slider';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { utilities } from '@cornerstonejs/tools';
import { useEffect, useState } from 'react';

/** Frame rates offered for cine, frames per second. */
export const CINE_FPS = { min: 1, max: 60, initial: 15 } as const;

/** Cine for a multi-frame instance (US, XA): play/pause and the frame rate (issue 5 §2). */
export function CineControls({
  element,
  initialFps,
}: {
  element: HTMLDivElement;
  initialFps: number | null;
}) {
  const [playing, setPlaying] = useState(false);
  const [fps, setFps] = useState(() =>
    Math.min(CINE_FPS.max, Math.max(CINE_FPS.min, Math.round(initialFps ?? CINE_FPS.initial))),
  );

  useEffect(() => {
    if (!playing) return undefined;
    utilities.cine.playClip(element, { framesPerSecond: fps, loop: true });
    return () => utilities.cine.stopClip(element);
  }, [playing, fps, element]);

  return (
    <Box
      onPointerDown={(e) => e.stopPropagation()}
      sx={{
        position: 'absolute',
        zIndex: 3,
        bottom: 40,
        left: '50%',
        transform: 'translateX(-50%)',
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        px: 1,
        borderRadius: 1,
        bgcolor: 'rgba(0,0,0,0.6)',
      }}
    >
      <Tooltip title={playing ? 'Pause cine' : 'Play cine'}>
        <IconButton
          size="small"
          onClick={() => setPlaying((p) => !p)}
          aria-label={playing ? 'Pause cine' : 'Play cine'}
        >
          {playing ? <PauseIcon fontSize="small" /> : <PlayArrowIcon fontSize="small" />}
        </IconButton>
      </Tooltip>
      <Slider
        size="small"
        min={CINE_FPS.min}
        max={CINE_FPS.max}
        value={fps}
        onChange={(_, value) => setFps(value as number)}
        aria-label="Frame rate"
        sx={{ width: 120 }}
      />
      <Typography variant="caption" sx={{ minWidth: 44 }}>
        {fps} fps
      </Typography>
    </Box>
  );
}
