import { describe, expect, it } from 'vitest';
import { REDACTED, settingsOf } from './settings.js';

describe('settingsOf', () => {
  it('shows every setting by name and never a credential', () => {
    expect(
      settingsOf({
        ROUTER_PORT: 8090,
        ROUTER_SERVER_URL: 'https://cloud.example',
        ROUTER_API_TOKEN: 'rft_abc',
        ROUTER_UPLOAD_HOURS: ['08:00', '20:00'],
        ROUTER_EMPTY_SECRET: '',
        ROUTER_URGENT_FIRST: true,
      }).settings(),
    ).toEqual({
      ROUTER_PORT: 8090,
      ROUTER_SERVER_URL: 'https://cloud.example',
      ROUTER_API_TOKEN: REDACTED,
      ROUTER_UPLOAD_HOURS: '["08:00","20:00"]',
      ROUTER_EMPTY_SECRET: null,
      ROUTER_URGENT_FIRST: true,
    });
  });
});
