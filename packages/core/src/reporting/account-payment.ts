import { z } from 'zod';
import { MESSAGES } from '../common/messages.js';
import { ZPaymentDue } from '../payments/schemas.js';
import { ZSupportContact } from '../identity/schemas.js';

/*
 * The page a viewer-role session lands on when its payment is not done (spec-core §4 Viewer payment:
 * "show 'Payment needed' and after 2 seconds go to /share?link={email}"). The spec names the address
 * but not the page: it says whether a payment is due as GET /api/customer-report/share-info decides
 * it, lists the dues with the provider's pay links (core payments), and who to contact.
 */

export const ACCOUNT_PAYMENT_MESSAGES = {
  /** spec-core §9, word for word. */
  title: MESSAGES.paymentNeeded,
  due: 'A payment is due on your account. Until it is made, the reports and images shared with you cannot be opened.',
  whatToDo: 'To pay or to ask about the amount, contact:',
  groupAdmins: 'Your group administrators',
  notDueTitle: 'No payment is due',
  notDue: 'No payment is due on your account. You can open your studies.',
  signInFirst: 'Sign in with the account this page is for to see what is due.',
  duesTitle: 'What is due',
  payNow: 'Pay now',
  noPayLink: 'Pay at the center, or contact them:',
} as const;

/**
 * Whether a /share?link= value is the payment redirect's e-mail rather than a share token: tokens
 * are base64url (core SHARE_TOKEN_PATTERN), which never holds '@'.
 */
export function isAccountPaymentLink(link: string): boolean {
  return link.includes('@');
}

/** GET /api/customer-report/payment-info: what the payment page shows the signed-in viewer. */
export const ZAccountPayment = z
  .object({
    /** The same answer as share-info's paymentNotDone for this session. */
    paymentNotDone: z.boolean(),
    /** The pending payments of studies shared with this account (payments module), oldest first. */
    dues: z.array(ZPaymentDue),
    /** The deployment's support contact (server SUPPORT_PHONE / SUPPORT_EMAIL). */
    support: ZSupportContact,
    /** Active group administrators (ROLE_ADMIN, ROLE_GROUP) of the viewer's group. */
    groupAdmins: z.array(z.object({ name: z.string(), email: z.string() })),
  })
  .meta({ id: 'AccountPayment' });
export type TAccountPayment = z.infer<typeof ZAccountPayment>;
