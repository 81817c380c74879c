import { describe, expect, it } from 'vitest';
import { isAccountPaymentLink } from './account-payment.js';
import { SHARE_TOKEN_PATTERN } from './sharing.js';

describe('isAccountPaymentLink', () => {
  it("tells the payment redirect's e-mail from a share token", () => {
    expect(isAccountPaymentLink('viewer@demo.local')).toBe(true);
    const token = 'tok_ABCDEFGHIJKLMNOPQRSTUVWX';
    expect(SHARE_TOKEN_PATTERN.test(token)).toBe(true);
    expect(isAccountPaymentLink(token)).toBe(false);
  });
});
