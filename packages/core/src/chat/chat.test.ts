import { describe, expect, it } from 'vitest';
import { ROLES } from '../identity/roles.js';
import { CHAT_MESSAGES, CHAT_MESSAGE_MAX_LENGTH, ZChatText, canChat, chatMemberTypeOf } from './chat.js';

describe('who takes part in the study chat', () => {
  it('the staff who work on studies, not the patient, viewer, referring doctor, lab desk or sales', () => {
    const outside = ROLES.filter((role) => !canChat([role]));
    expect(outside.sort()).toEqual(
      [
        'ROLE_ADMIN_BILLER',
        'ROLE_BILLER',
        'ROLE_CENTER_CUSTOMER',
        'ROLE_CUSTOMER',
        'ROLE_DASHBOARD_VIEWER',
        'ROLE_LABS_RECEPTIONIST',
        'ROLE_LABS_SUPERVISOR',
        'ROLE_RADFLOW_SALES',
        'ROLE_REFERRING_DOCTOR',
        'ROLE_VIEWER',
      ].sort(),
    );
    expect(canChat(['ROLE_CUSTOMER', 'ROLE_DOCTOR'])).toBe(true);
  });

  it('names the side a sender speaks for', () => {
    expect(chatMemberTypeOf(['ROLE_CENTER'])).toBe('center');
    expect(chatMemberTypeOf(['ROLE_DOCTOR'])).toBe('radiologist');
    expect(chatMemberTypeOf(['ROLE_TYPIST'])).toBe('radiologist');
    expect(chatMemberTypeOf(['ROLE_ASSIGNOR'])).toBe('admin');
    expect(chatMemberTypeOf(['ROLE_ADMIN'])).toBe('admin');
  });
});

describe('a message text', () => {
  it('is trimmed, never empty, at most the limit, and kept as typed (no HTML handling)', () => {
    expect(ZChatText.parse('  hi  ')).toBe('hi');
    expect(ZChatText.parse('<b>x</b>')).toBe('<b>x</b>');
    for (const empty of ['', '   ', '\n\t']) {
      expect(ZChatText.safeParse(empty).error?.issues[0]?.message).toBe(CHAT_MESSAGES.empty);
    }
    expect(ZChatText.safeParse('x'.repeat(CHAT_MESSAGE_MAX_LENGTH)).success).toBe(true);
    expect(ZChatText.safeParse('x'.repeat(CHAT_MESSAGE_MAX_LENGTH + 1)).error?.issues[0]?.message).toBe(
      CHAT_MESSAGES.tooLong,
    );
  });
});
