import { NOTIFICATION_KIND_LABELS, formatPersonName, type TNotification } from '@radflow/core';
import { formatTimestamp } from '../../lib/format';

/** What a notification says: its label, the study as the lists name it, who and when. */
export function notificationText(n: TNotification) {
  const study = [formatPersonName(n.patientName) || n.patientName, n.studyName].filter(Boolean).join(' · ');
  return {
    title: NOTIFICATION_KIND_LABELS[n.kind],
    study: study || `Study ${n.reportStatusId}`,
    byWhen: [n.actor, formatTimestamp(n.at)].filter(Boolean).join(' · '),
  };
}
