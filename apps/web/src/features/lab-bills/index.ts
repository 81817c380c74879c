/** The lab bills' screens (issue 25 §3–§4): loaded lazily by app/routes.tsx with /lab/create-bill. */
export { BillScreen, type TBillScreenProps } from './BillScreen';
export { BillingList } from './BillingList';
