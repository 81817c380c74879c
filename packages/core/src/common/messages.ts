/** User-facing texts the spec gives word for word (spec-core §4, §5, §8). One place, both sides. */
export const MESSAGES = {
  otpOnlyMobile: 'Only mobile numbers are supported for otp',
  loginNeedsApproval: 'Your login needs to be approved by admin',
  pleaseLoginAgain: 'Please login again',
  pleaseTryAgain: 'Please try again',
  notFound: 'Not found',
  notAllowed: 'You are not allowed to view this page',
  paymentNeeded: 'Payment needed',
  youAreOffline: 'You are now offline.',
  youAreOnline: 'You are now online.',
  redirecting: (host: string) => `Redirecting ${host}`,
  subscriptionWarning:
    'Warning: Your subscription has expired. Please renew your plan immediately to avoid any interruption in services.',
  settingsResetConfirm: 'You are resetting value for user please double check.',
  noResultFound: 'No result found',
  pleaseSelectDate: 'Please select date',
} as const;
