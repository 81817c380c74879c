/**
 * Ours (issue 26 §2; the spec's route table names no payout screen): the payout screen. The tele
 * roles run payouts there (rates, statements, margin); a doctor reads their own statements there.
 */
export const PAYOUTS_PATH = '/manage-tele-payout';
