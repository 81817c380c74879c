import { describe, expect, it } from 'vitest';
import {
  ZCurrentUser,
  ZLoginForm,
  ZMobileRequest,
  ZOtpCode,
  ZRole,
  ZUpdateApprovalRequest,
  ZUpdatePasswordRequest,
} from './schemas.js';
import { ROLES } from './roles.js';

describe('ZLoginForm (POST /api/do-login)', () => {
  it('lower-cases and trims the identifier, and leaves the password as typed', () => {
    expect(ZLoginForm.parse({ email: '  Admin@Demo.LOCAL ', password: ' Demo12345 ' })).toEqual({
      email: 'admin@demo.local',
      password: ' Demo12345 ',
    });
  });

  it('takes a mobile number in the same field', () => {
    expect(ZLoginForm.parse({ email: ' 9876543210 ', password: '123456' }).email).toBe('9876543210');
  });

  it.each([
    ['email', { email: '', password: 'x' }],
    ['email', { password: 'x' }],
    ['password', { email: 'a@b.co', password: '' }],
    ['password', { email: 'a@b.co', password: 1234 }],
  ])('names the field %s when it is missing or wrong', (field, body) => {
    const result = ZLoginForm.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path[0])).toContain(field);
  });
});

describe('ZMobileRequest (spec-core §4 Login: OTP only for mobile numbers)', () => {
  it('accepts a mobile number and trims it', () => {
    expect(ZMobileRequest.parse({ mobile: ' 9876543210 ' })).toEqual({ mobile: '9876543210' });
  });

  it.each([
    ['an e-mail', 'doctor@demo.local'],
    ['an e-mail longer than any mobile number', 'someone.with.a.long.name@example.com'],
    ['a number starting with 5', '5876543210'],
    ['9 digits', '987654321'],
    ['11 digits', '98765432101'],
    ['letters', '98765abcde'],
    ['the +91 prefix', '+919876543210'],
    ['an empty value', ''],
  ])('answers %s with exactly the spec message', (_name, mobile) => {
    const result = ZMobileRequest.safeParse({ mobile });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toHaveLength(1);
    expect(result.error?.issues[0]?.message).toBe('Only mobile numbers are supported for otp');
    expect(result.error?.issues[0]?.path).toEqual(['mobile']);
  });
});

describe('ZOtpCode', () => {
  it('accepts 6 digits and nothing else', () => {
    expect(ZOtpCode.safeParse('123456').success).toBe(true);
    expect(ZOtpCode.safeParse('12345').success).toBe(false);
    expect(ZOtpCode.safeParse('1234567').success).toBe(false);
    expect(ZOtpCode.safeParse('abcdef').success).toBe(false);
  });
});

describe('ZUpdatePasswordRequest (minimum length 8, NIST 800-63B)', () => {
  it('accepts a new password of 8 characters', () => {
    expect(
      ZUpdatePasswordRequest.safeParse({ currentPassword: 'demo12345', newPassword: 'abcdefgh' }).success,
    ).toBe(true);
  });

  it('refuses a new password of 7 characters, naming newPassword', () => {
    const result = ZUpdatePasswordRequest.safeParse({ currentPassword: 'demo12345', newPassword: 'abcdefg' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path)).toEqual([['newPassword']]);
  });

  it('requires the current password', () => {
    const result = ZUpdatePasswordRequest.safeParse({ currentPassword: '', newPassword: 'abcdefgh' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path)).toEqual([['currentPassword']]);
  });
});

describe('ZUpdateApprovalRequest', () => {
  it('takes APPROVED or REJECTED and normalises the e-mail', () => {
    expect(
      ZUpdateApprovalRequest.parse({ status: 'APPROVED', deviceId: 'd1', email: ' Doctor@Demo.local' }),
    ).toEqual({
      status: 'APPROVED',
      deviceId: 'd1',
      email: 'doctor@demo.local',
    });
    expect(
      ZUpdateApprovalRequest.safeParse({ status: 'REJECTED', deviceId: 'd1', email: 'a@b.co' }).success,
    ).toBe(true);
    expect(
      ZUpdateApprovalRequest.safeParse({ status: 'PENDING', deviceId: 'd1', email: 'a@b.co' }).success,
    ).toBe(false);
  });
});

describe('ZCurrentUser (spec-core §3)', () => {
  it('accepts every role and refuses an unknown one', () => {
    for (const role of ROLES) expect(ZRole.safeParse(role).success).toBe(true);
    const user = {
      email: 'doctor@demo.local',
      roles: ['ROLE_DOCTOR'],
      identifier: 'Dr Demo',
      chatUidHash: 'h',
      proxyUrl: null,
      hybridModeOn: false,
      active: true,
      centerId: null,
      support: { phone: '+91 80 4000 1234', email: null },
    };
    expect(ZCurrentUser.safeParse(user).success).toBe(true);
    expect(ZCurrentUser.safeParse({ ...user, support: undefined }).success).toBe(false);
    expect(ZCurrentUser.safeParse({ ...user, roles: ['ROLE_SUPERUSER'] }).success).toBe(false);
  });
});
