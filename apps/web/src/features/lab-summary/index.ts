/**
 * The lab's documents and summary (issue 25 §5): the summary screen (a route, loaded lazily by
 * app/routes.tsx), and for the bill screen and billing list the print-option chooser and the helpers
 * that open a bill's PDFs in a new tab.
 */
export { LabSummaryPage } from './LabSummaryPage';
export { PrintOptionDialog } from './PrintOptionDialog';
export { openAppointmentSlipPrint, openBillPrint, openLabDocument, openPrintOption } from './open-bill-print';
