import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { FEATURE_TOUR_STEPS, TOUR_TEXTS as T, isTourStepPresent, tourStepTarget } from './tour-steps';
import { cardPosition, presentStep, visiblePosition } from './tour-state';

const STEP_COUNT = FEATURE_TOUR_STEPS.length;
const CARD_WIDTH = 340;

/**
 * The tour's card beside a step's element, with a ring around that element. Its chunk loads while
 * the browser is idle once the offer is shown, so Start draws it at once (FeatureTour.tsx).
 */
export function TourCard({
  step,
  onGo,
  onSkip,
  onClose,
}: {
  step: number;
  onGo: (to: number) => void;
  onSkip: () => void;
  onClose: () => void;
}) {
  const titleId = useId();
  const textId = useId();
  const card = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<{ top: number; left: number; ring: DOMRect | null }>({
    top: 80,
    left: 260,
    ring: null,
  });
  const current = FEATURE_TOUR_STEPS[step];
  const previous = presentStep(STEP_COUNT, step - 1, -1, isTourStepPresent);
  const next = step + 1 < STEP_COUNT ? presentStep(STEP_COUNT, step + 1, 1, isTourStepPresent) : null;
  const position = visiblePosition(STEP_COUNT, step, isTourStepPresent);

  const measure = useCallback(() => {
    const target = tourStepTarget(step);
    const rect = target?.getBoundingClientRect() ?? null;
    const size = {
      width: card.current?.offsetWidth ?? CARD_WIDTH,
      height: card.current?.offsetHeight ?? 180,
    };
    const viewport = { width: window.innerWidth, height: window.innerHeight };
    const at = rect ? cardPosition(rect, size, viewport) : { top: 80, left: 260 };
    setPlace({ ...at, ring: rect });
  }, [step]);

  useLayoutEffect(() => {
    tourStepTarget(step)?.scrollIntoView?.({ block: 'center', inline: 'nearest' });
    measure();
    // The card takes focus with each step, so a keyboard user reads it next (aria: a non-modal dialog).
    card.current?.focus();
  }, [step, measure]);

  useEffect(() => {
    window.addEventListener('resize', measure);
    window.addEventListener('scroll', measure, true);
    return () => {
      window.removeEventListener('resize', measure);
      window.removeEventListener('scroll', measure, true);
    };
  }, [measure]);

  if (!current) return null;
  return (
    <>
      {place.ring && (
        <Box
          aria-hidden
          data-testid="tour-ring"
          sx={{
            position: 'fixed',
            top: place.ring.top - 4,
            left: place.ring.left - 4,
            width: place.ring.width + 8,
            height: place.ring.height + 8,
            border: 2,
            borderColor: 'primary.main',
            borderRadius: 1,
            pointerEvents: 'none',
            zIndex: (t) => t.zIndex.drawer + 2,
          }}
        />
      )}
      <Paper
        ref={card}
        role="dialog"
        aria-modal="false"
        aria-labelledby={titleId}
        aria-describedby={textId}
        tabIndex={-1}
        elevation={8}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          }
        }}
        sx={{
          position: 'fixed',
          top: place.top,
          left: place.left,
          width: CARD_WIDTH,
          maxWidth: 'calc(100vw - 16px)',
          p: 2,
          zIndex: (t) => t.zIndex.drawer + 3,
          outline: 'none',
        }}
      >
        <Stack direction="row" sx={{ alignItems: 'flex-start' }}>
          <Box sx={{ flex: 1 }}>
            <Typography variant="caption" color="text.secondary">
              {T.stepOf(position.step, position.of)}
            </Typography>
            <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
              {current.title}
            </Typography>
          </Box>
          <IconButton size="small" aria-label={T.close} onClick={onClose}>
            <CloseIcon fontSize="small" />
          </IconButton>
        </Stack>
        <Typography id={textId} variant="body2" sx={{ my: 1 }}>
          {current.text}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button size="small" onClick={onSkip}>
            {T.skip}
          </Button>
          {previous !== null && (
            <Button size="small" onClick={() => onGo(previous)}>
              {T.back}
            </Button>
          )}
          {next !== null ? (
            <Button size="small" variant="contained" onClick={() => onGo(next)}>
              {T.next}
            </Button>
          ) : (
            <Button size="small" variant="contained" onClick={onSkip}>
              {T.done}
            </Button>
          )}
        </Stack>
      </Paper>
    </>
  );
}
