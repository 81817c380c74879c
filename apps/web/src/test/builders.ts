import {
  DEFAULT_BRAND,
  defaultPreferences,
  type TCenterOption,
  type TCurrentUser,
  type TRole,
  type TUserPreferences,
} from '@radflow/core';
import type { TFakeReply } from './fake-api';

let counter = 0;

/** A current user as GET /api/user/ answers it; unique e-mail per call. */
export function buildUser(roles: TRole[], overrides: Partial<TCurrentUser> = {}): TCurrentUser {
  counter += 1;
  return {
    email: `user${counter}@demo.local`,
    roles,
    identifier: `User ${counter}`,
    chatUidHash: `hash-${counter}`,
    proxyUrl: null,
    hybridModeOn: false,
    active: true,
    centerId: null,
    support: { phone: null, email: null },
    answersSupport: false,
    ...overrides,
  };
}

/** Preferences with some group switches turned on. */
export function buildPreferences(
  edit: (prefs: TUserPreferences) => void = () => undefined,
): TUserPreferences {
  const prefs = defaultPreferences();
  edit(prefs);
  return prefs;
}

/** The session calls of spec-core §4 (and the assignor's group preferences) answering for one signed-in user. */
export function sessionHandlers(
  user: TCurrentUser,
  preferences: TUserPreferences = defaultPreferences(),
  teleUser = false,
): Record<string, TFakeReply> {
  return {
    'GET /api/user/': { body: user },
    'GET /api/user/preference': { body: preferences },
    'GET /api/user/group-preferences': {
      body: {
        USER_ADMIN_VISIBLE_PREFERENCES: preferences.USER_ADMIN_VISIBLE_PREFERENCES,
        GROUP_SWITCHES: preferences.GROUP_SWITCHES,
        ADMIN_PREFERENCES: preferences.ADMIN_PREFERENCES,
        VERIFICATION_SETTINGS: preferences.VERIFICATION_SETTINGS,
      },
    },
    'GET /api/user/mapping': { body: {} },
    'GET /api/user/tele-info': { body: { teleUser } },
    // The shell's brand (issue 29 §8): the product's own unless a test gives the group one.
    'GET /api/brand-assets': { body: DEFAULT_BRAND },
  };
}

export const signedOutHandlers: Record<string, TFakeReply> = {
  'GET /api/user/': {
    status: 401,
    body: { errorStatusCode: 401, errorDescription: 'Unauthorized', additionalInfo: null, txnId: 't' },
  },
};

/** A center as GET /api/centers lists it; unique id, name and e-mail per call. */
export function buildCenter(overrides: Partial<TCenterOption> = {}): TCenterOption {
  counter += 1;
  return { id: 100 + counter, name: `Center ${counter}`, email: `center${counter}@demo.local`, ...overrides };
}
