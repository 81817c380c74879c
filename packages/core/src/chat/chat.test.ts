import { describe, expect, it } from 'vitest';
import { ROLES } from '../identity/roles.js';
import {
  CHAT_MESSAGES,
  CHAT_MESSAGE_MAX_LENGTH,
  ZChatText,
  canChat,
  chatMemberTypeOf,
  chatTextParts,
  isChatMemberOf,
  type TChatMessage,
  withChatMessage,
} from './chat.js';

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

describe("who is in a study's conversation (whom a message may mention)", () => {
  const row = { centerId: 5, assignedToUserId: 7 };
  it("the row's center staff, its assigned doctor, the group's routers and admins", () => {
    expect(isChatMemberOf({ id: 1, roles: ['ROLE_CENTER'], centerId: 5 }, row)).toBe(true);
    expect(isChatMemberOf({ id: 1, roles: ['ROLE_CENTER_BACKUP'], centerId: 5 }, row)).toBe(true);
    expect(isChatMemberOf({ id: 1, roles: ['ROLE_CENTER'], centerId: 6 }, row)).toBe(false);
    expect(isChatMemberOf({ id: 7, roles: ['ROLE_DOCTOR'], centerId: null }, row)).toBe(true);
    expect(isChatMemberOf({ id: 8, roles: ['ROLE_DOCTOR'], centerId: null }, row)).toBe(false);
    expect(isChatMemberOf({ id: 9, roles: ['ROLE_ASSIGNOR'], centerId: null }, row)).toBe(true);
    expect(isChatMemberOf({ id: 9, roles: ['ROLE_ADMIN'], centerId: null }, row)).toBe(true);
    expect(isChatMemberOf({ id: 9, roles: ['ROLE_TYPIST'], centerId: null }, row)).toBe(false);
    expect(isChatMemberOf({ id: 9, roles: ['ROLE_CUSTOMER'], centerId: 5 }, row)).toBe(false);
  });
});

describe('the pieces of a shown message', () => {
  it('marks @name of the given names (longest first), the rest stays text, HTML and all', () => {
    expect(chatTextParts('@Dr Ann Lee see <b>this</b> @Ann', ['Ann', 'Dr Ann Lee'])).toEqual([
      { kind: 'mention', text: '@Dr Ann Lee' },
      { kind: 'text', text: ' see <b>this</b> ' },
      { kind: 'mention', text: '@Ann' },
    ]);
    expect(chatTextParts('mail a@b.c', ['Bob'])).toEqual([{ kind: 'text', text: 'mail a@b.c' }]);
    expect(chatTextParts('', [])).toEqual([]);
  });
});

describe("a message into the tab's thread (the live event, the sender's answer)", () => {
  const msg = (messageId: number, seen: boolean): TChatMessage => ({
    messageId,
    chatThreadId: 1,
    threadType: 'REPORT_CHAT',
    entityId: 7,
    memberType: 'center',
    createdBy: 'c@x',
    seen,
    messageUpdatedAt: '2026-11-28T00:00:00.000Z',
    message: {
      type: 'COMMENT',
      message: `m${messageId}`,
      assignedTo: 'NONE',
      entityId: 7,
      studyId: 3,
      mentions: [],
      reference: null,
    },
    oldMessage: null,
    seenByList: [],
  });
  it('joins once by id, in id order, the unseen count following', () => {
    const thread = { messages: [msg(1, true), msg(3, false)], unseen: 1 };
    const withTwo = withChatMessage(thread, msg(2, false));
    expect(withTwo.messages.map((m) => m.messageId)).toEqual([1, 2, 3]);
    expect(withTwo.unseen).toBe(2);
    expect(withChatMessage(withTwo, msg(2, true))).toBe(withTwo);
    expect(withChatMessage(thread, msg(4, true)).unseen).toBe(1);
  });
});
