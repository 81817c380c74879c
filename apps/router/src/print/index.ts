/** Image print at the center (issue 27 §3, spec-core §7 `POST /router/image/print`). See ../forward/FORWARD.md. */
export * from './print-content.js';
export * from './print-scu.js';
export * from './pdf-page.js';
export * from './printers.js';
export * from './printer-setting.js';
