/**
 * The lab's patients and referring doctors (issue 25 §1): route screens, loaded lazily by
 * app/routes.tsx, and the dialog and pickers the bill screen reuses.
 */
export { EditPatientDetailsPage } from './EditPatientDetailsPage';
export { EditReferringDoctorPage } from './EditReferringDoctorPage';
export { RegistrationPage, createBillPath } from './RegistrationPage';
export { PatientDialog } from './PatientDialog';
export { ReferringDoctorDialog } from './ReferringDoctorDialog';
export { PatientPicker } from './PatientPicker';
export { ReferringDoctorPicker } from './ReferringDoctorPicker';
export { fetchPatient, searchPatients, searchReferringDoctors } from './lab-patients-api';
