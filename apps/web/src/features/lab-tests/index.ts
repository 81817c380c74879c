/** The lab's test catalogue (issue 25 §2): the /lab/test route screen, loaded lazily by app/routes.tsx. */
export { LabTestPage } from './LabTestPage';
