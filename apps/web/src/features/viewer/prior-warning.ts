import type { TViewerPrior } from '@radflow/core';
import { formatPersonName, formatStudyDate } from './overlay-text';

/**
 * The warning of a prior filed under the same patient id and issuer whose name or birth date differ
 * from the current study's (issue 21 §8): it may be another person. null when nothing differs.
 */
export function priorWarning(prior: Pick<TViewerPrior, 'differs' | 'patientName' | 'patientBirthDate'>) {
  if (prior.differs.length === 0) return null;
  const parts = prior.differs.map((field) =>
    field === 'patientName'
      ? `name ${formatPersonName(prior.patientName)}`
      : `birth date ${formatStudyDate(prior.patientBirthDate)}`,
  );
  return `Same patient ID, different ${parts.join(' and ')}: check it is the same patient`;
}
