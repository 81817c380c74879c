/**
 * The session's calls (spec-core §4 Session, §7 "Session and preferences"): read by identity.ts and
 * asked for ahead of the app by the page's early requests (app/early/early-requests.ts).
 */
export const SESSION_PATHS = {
  currentUser: '/api/user/',
  preferences: '/api/user/preference',
  groupPreferences: '/api/user/group-preferences',
  mapping: '/api/user/mapping',
  teleInfo: '/api/user/tele-info',
} as const;
