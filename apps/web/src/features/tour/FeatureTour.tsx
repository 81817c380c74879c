import CloseIcon from '@mui/icons-material/Close';
import InfoIcon from '@mui/icons-material/InfoOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  FEATURE_TOUR_ID,
  isTutorialDue,
  resumeStepOf,
  withTutorialCompleted,
  withTutorialStep,
} from '@radflow/core';
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { FEATURE_TOUR_STEPS, TOUR_TEXTS as T, tourTargetSelector } from './tour-steps';
import { cardPosition, presentStep, visiblePosition } from './tour-state';
import { useTutorialStatus } from './useTutorialStatus';

const STEP_COUNT = FEATURE_TOUR_STEPS.length;
const CARD_WIDTH = 340;

function targetOf(index: number): HTMLElement | null {
  const step = FEATURE_TOUR_STEPS[index];
  return step ? document.querySelector<HTMLElement>(tourTargetSelector(step.target)) : null;
}
const isPresent = (index: number) => targetOf(index) !== null;

/**
 * The feature tour (spec-core §2; spec-lab §4 "runs once until marked shown"; issue 29 §7). A user
 * who has not finished or skipped it finds an offer above the screen (in the page's flow: it covers
 * nothing and takes no focus the user did not give); started, a card beside each step's element walks
 * through the screen. Skipping or finishing marks it shown in TUTORIAL_STATUS, on the server; closing
 * (Escape, ×) keeps the step, and the offer then continues from it — in any browser.
 */
export function FeatureTour() {
  const { status, save } = useTutorialStatus();
  const [step, setStep] = useState<number | null>(null);
  const offerButton = useRef<HTMLButtonElement>(null);
  // Closing the card gives focus back to the offer, once the offer is drawn again.
  const [isReturningFocus, setReturningFocus] = useState(false);
  useEffect(() => {
    if (step !== null || !isReturningFocus) return;
    offerButton.current?.focus();
    setReturningFocus(false);
  }, [step, isReturningFocus]);
  if (!status || !isTutorialDue(status, FEATURE_TOUR_ID)) return null;

  const resumeAt = resumeStepOf(status, FEATURE_TOUR_ID);
  const start = () => setStep(presentStep(STEP_COUNT, resumeAt, 1, isPresent) ?? resumeAt);
  const skip = () => {
    setStep(null);
    save(withTutorialCompleted(status, FEATURE_TOUR_ID));
  };
  const close = () => {
    setStep(null);
    setReturningFocus(true);
  };
  const go = (to: number) => {
    setStep(to);
    save(withTutorialStep(status, FEATURE_TOUR_ID, to));
  };
  const isResuming = FEATURE_TOUR_ID in status.inProgress;

  return (
    <Box component="section" aria-label={T.region} sx={{ mb: 1.5 }}>
      {step === null ? (
        // Not an alert (role=alert would interrupt a screen reader, and it is no error): a plain box.
        <Paper
          variant="outlined"
          sx={{
            p: 1.5,
            display: 'flex',
            gap: 1.5,
            alignItems: 'center',
            flexWrap: 'wrap',
            borderColor: 'info.main',
          }}
        >
          <InfoIcon color="info" fontSize="small" />
          <Typography variant="body2" sx={{ flex: 1, minWidth: 240 }}>
            {T.offer}
          </Typography>
          <Stack direction="row" spacing={1}>
            <Button ref={offerButton} size="small" variant="contained" onClick={start}>
              {isResuming ? T.resume : T.start}
            </Button>
            <Button size="small" onClick={skip}>
              {T.skip}
            </Button>
          </Stack>
        </Paper>
      ) : (
        <TourCard step={step} onGo={go} onSkip={skip} onClose={close} />
      )}
    </Box>
  );
}

function TourCard({
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
  const previous = presentStep(STEP_COUNT, step - 1, -1, isPresent);
  const next = step + 1 < STEP_COUNT ? presentStep(STEP_COUNT, step + 1, 1, isPresent) : null;
  const position = visiblePosition(STEP_COUNT, step, isPresent);

  const measure = useCallback(() => {
    const target = targetOf(step);
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
    targetOf(step)?.scrollIntoView?.({ block: 'center', inline: 'nearest' });
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
