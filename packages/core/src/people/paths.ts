/**
 * The group admin's screens and the set-password link's page (ours, issue 21 §9). A module of their
 * own: the menus and the route guard need these three strings in the first bundle, nothing else of
 * the people rules.
 */
export const MANAGE_CENTERS_PATH = '/manage-centers';
export const MANAGE_USERS_PATH = '/manage-users';
/** The web page a set-password link opens (public: the invitee has no session yet). */
export const SET_PASSWORD_PATH = '/set-password';
