import { describe, expect, it } from 'vitest';
import {
  EMAIL_PATTERN,
  MOBILE_PATTERN,
  OTP_PATTERN,
  isEmail,
  isMobileNumber,
  normalizeLoginIdentifier,
} from './validation.js';

describe('mobile pattern (spec-core §5: 10 digits starting 6-9)', () => {
  it.each(['6000000000', '7123456789', '8999999999', '9876543210'])('accepts %s', (value) => {
    expect(MOBILE_PATTERN.test(value)).toBe(true);
    expect(isMobileNumber(value)).toBe(true);
  });

  it.each([
    ['starting with 5', '5876543210'],
    ['starting with 0', '0876543210'],
    ['9 digits', '987654321'],
    ['11 digits', '98765432101'],
    ['letters', '98765abcde'],
    ['all letters', 'abcdefghij'],
    ['the +91 prefix', '+919876543210'],
    ['spaces inside', '98765 43210'],
    ['an e-mail', 'doctor@demo.local'],
    ['empty', ''],
  ])('rejects %s (%s)', (_name, value) => {
    expect(MOBILE_PATTERN.test(value)).toBe(false);
    expect(isMobileNumber(value)).toBe(false);
  });

  it('judges the login identifier after trimming it', () => {
    expect(MOBILE_PATTERN.test(' 9876543210 ')).toBe(false);
    expect(isMobileNumber(' 9876543210 ')).toBe(true);
  });
});

describe('OTP (spec-core §5: a 6-digit numeric code)', () => {
  it.each(['000000', '123456', '999999'])('accepts %s', (value) => {
    expect(OTP_PATTERN.test(value)).toBe(true);
  });

  it.each(['12345', '1234567', '12a456', ' 123456', '12 456', ''])('rejects %j', (value) => {
    expect(OTP_PATTERN.test(value)).toBe(false);
  });
});

describe('normalizeLoginIdentifier (spec-core §2 Login page: lower-cased and trimmed)', () => {
  it.each([
    ['  Doctor@Demo.LOCAL ', 'doctor@demo.local'],
    ['\tADMIN@demo.local\n', 'admin@demo.local'],
    [' 9876543210', '9876543210'],
    ['already@fine.io', 'already@fine.io'],
  ])('%j → %j', (input, output) => {
    expect(normalizeLoginIdentifier(input)).toBe(output);
  });
});

describe('e-mail pattern (spec-core §5)', () => {
  it.each(['doctor@demo.local', 'a.b+c@example.co.in', ' Admin@Demo.Local '])('accepts %j', (value) => {
    expect(isEmail(value)).toBe(true);
  });

  it.each(['doctor', 'doctor@', '@demo.local', 'doctor@demo', 'two words@demo.local', '9876543210'])(
    'rejects %j',
    (value) => {
      expect(isEmail(value)).toBe(false);
      expect(EMAIL_PATTERN.test(value)).toBe(false);
    },
  );
});
