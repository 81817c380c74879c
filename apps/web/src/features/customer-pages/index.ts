export { CustomerReportsPage } from './CustomerReportsPage';
export { ManagePatientPage } from './ManagePatientPage';
