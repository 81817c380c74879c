/** Ours (issue 29 §6): support's screen of the support chat's threads (the spec names none). */
export const SUPPORT_INBOX_PATH = '/support-inbox';
