/** Who the caller is and what their roles open: roles, permissions, menus and routes, sign-in and session contracts. */
export * from './roles.js';
export * from './permissions.js';
export * from './password-rules.js';
export * from './menus.js';
export * from './routes.js';
export * from './schemas.js';
export * from './session-schemas.js';
