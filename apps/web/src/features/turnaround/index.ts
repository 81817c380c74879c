/** Turnaround at risk in the study list (issue 24 §4): the badge, the list, the row mark. */
export { AtRiskButton, AtRiskMark } from './AtRiskButton';
export { AT_RISK_QUERY_KEY, useAtRisk, timeLeftText } from './turnaround-api';
