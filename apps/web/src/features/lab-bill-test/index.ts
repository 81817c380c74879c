export { LabBillTestPage } from './LabBillTestPage';
