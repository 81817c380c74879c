export { CriticalResultBadge } from './CriticalResultBadge';
export { CriticalResultsSection } from './CriticalResultsSection';
export { OpenCriticalResultsBanner } from './OpenCriticalResultsBanner';
export {
  OPEN_CRITICAL_RESULTS_QUERY_KEY,
  criticalResultsQueryKey,
  useOpenCriticalResults,
} from './critical-results-api';
