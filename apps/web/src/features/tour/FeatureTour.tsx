import InfoIcon from '@mui/icons-material/InfoOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
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
import { useEffect, useRef, useState } from 'react';
import { openWhenLoaded, preloadWhenIdle, preloadable } from '../../lib/preloadable';
import { FEATURE_TOUR_STEPS, TOUR_TEXTS as T, isTourStepPresent } from './tour-steps';
import { presentStep } from './tour-state';
import { useTutorialStatus } from './useTutorialStatus';

const STEP_COUNT = FEATURE_TOUR_STEPS.length;

// The card and its placement load once the offer is on the screen (most users never start the tour).
const TourCard = preloadable(() => import('./TourCard').then((m) => ({ default: m.TourCard })));

/**
 * The feature tour (spec-core §2; spec-lab §4 "runs once until marked shown"; issue 29 §7). A user
 * who has not finished or skipped it finds an offer above the screen (in the page's flow: it covers
 * nothing and takes no focus the user did not give); started, a card beside each step's element walks
 * through the screen. Skipping or finishing marks it shown in TUTORIAL_STATUS, on the server; closing
 * (Escape, ×) keeps the step, and the offer then continues from it — in any browser.
 *
 * The offer is drawn with the shell, in the same frame as the screen below it: drawn later (its own
 * chunk, as it once was), it pushed the screen down ~65 px under a pointer about to click.
 */
export function FeatureTour() {
  const { status, save } = useTutorialStatus();
  const [step, setStep] = useState<number | null>(null);
  const offerButton = useRef<HTMLButtonElement>(null);
  // Closing the card gives focus back to the offer, once the offer is drawn again.
  const [isReturningFocus, setReturningFocus] = useState(false);
  const isDue = status !== null && isTutorialDue(status, FEATURE_TOUR_ID);
  useEffect(() => {
    if (isDue) preloadWhenIdle([TourCard]);
  }, [isDue]);
  useEffect(() => {
    if (step !== null || !isReturningFocus) return;
    offerButton.current?.focus();
    setReturningFocus(false);
  }, [step, isReturningFocus]);
  if (!status || !isDue) return null;

  const resumeAt = resumeStepOf(status, FEATURE_TOUR_ID);
  const start = () =>
    openWhenLoaded(TourCard, () =>
      setStep(presentStep(STEP_COUNT, resumeAt, 1, isTourStepPresent) ?? resumeAt),
    );
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
