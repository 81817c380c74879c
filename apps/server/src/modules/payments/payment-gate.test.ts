import { describe, expect, it } from 'vitest';
import { isContentRoute } from './payment-gate.js';

describe('isContentRoute (what a viewer account with a payment due may not call)', () => {
  it('every study call is content, a new one included (fail-closed)', () => {
    for (const url of [
      '/api/report/:reportStatusId',
      '/api/pdf/download',
      '/api/dicomweb/studies/:study/series',
      '/api/dicomweb/wado',
      '/api/share/:link/series',
      '/api/viewer/:id/context',
      '/api/some-future-call/:id',
    ]) {
      expect(isContentRoute(url), url).toBe(true);
    }
  });

  it('signing in and out, the account, preferences, mapping and the payment calls are not', () => {
    for (const url of [
      '/api/do-login',
      '/api/do-logout',
      '/api/user/',
      '/api/user/mapping',
      '/api/user/preference',
      '/api/setting/update/:settingName',
      '/api/customer-report/share-info',
      '/api/customer-report/payment-info',
      '/api/customer-report/payment-confirm',
      '/api/assets/:id',
      '/api/health',
    ]) {
      expect(isContentRoute(url), url).toBe(false);
    }
  });

  it('pages outside /api and unmatched requests are left to their own handlers', () => {
    expect(isContentRoute('/')).toBe(false);
    expect(isContentRoute('/*')).toBe(false);
    expect(isContentRoute(undefined)).toBe(false);
  });
});
