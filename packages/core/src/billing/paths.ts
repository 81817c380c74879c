/**
 * The payers' invoice pages (ours, issue 26; the spec names no such screens): a center's
 * tele-radiology invoices and a group's platform invoices, each with a pay button. They are also the
 * pages the payment provider sends the payer back to (modules/invoice-payments/DECISIONS.md).
 */
export const CENTER_INVOICES_PATH = '/center-invoices';
export const PLATFORM_INVOICES_PATH = '/platform-invoices';
