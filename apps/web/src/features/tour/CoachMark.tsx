import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import { type TCoachMark, coachMarkId, isTutorialDue, withTutorialCompleted } from '@radflow/core';
import { TOUR_TEXTS as T } from './tour-steps';
import { useTutorialStatus } from './useTutorialStatus';

/** What each coach mark says (spec-core §3 "coach marks router, weasis, radiant"; texts ours). */
export const COACH_MARK_TEXTS: Record<TCoachMark, string> = {
  router: 'Download the Radflow router for your center: it sends your machines’ images here.',
  weasis: 'Open this study in Weasis, the free desktop viewer, with one click.',
  radiant: 'Open this study in RadiAnt: it is downloaded to the folder set in Study Table setting.',
};

/**
 * A coach mark (issue 29 §7): a small 'New' tag beside an entry a user may not know, with its hint,
 * until they dismiss it; kept in TUTORIAL_STATUS so it is not shown again in any browser. Inline,
 * it covers nothing.
 */
export function CoachMark({ mark }: { mark: TCoachMark }) {
  const { status, save } = useTutorialStatus();
  const id = coachMarkId(mark);
  if (!status || !isTutorialDue(status, id)) return null;
  const text = COACH_MARK_TEXTS[mark];
  return (
    <Tooltip title={`${text} (${T.coachDismiss})`}>
      <Chip
        size="small"
        color="info"
        label={T.coachNew}
        aria-label={`${T.coachNew}: ${text} ${T.coachDismiss}`}
        onClick={(e) => {
          // Inside a list item or button: dismissing the mark is not choosing the entry.
          e.stopPropagation();
          e.preventDefault();
          save(withTutorialCompleted(status, id));
        }}
        sx={{ ml: 0.5, height: 18, fontSize: 10 }}
      />
    </Tooltip>
  );
}
