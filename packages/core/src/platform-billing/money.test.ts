import { describe, expect, it } from 'vitest';
import { platformInvoiceAmounts, platformInvoiceDueMinor } from './money.js';
import {
  addMonths,
  canUsePlatformBilling,
  effectiveSubscriptionStatus,
  extendedExpiry,
  isSubscriptionExpired,
  nextPeriod,
} from './rules.js';

describe('platformInvoiceAmounts', () => {
  const perStudy = {
    kind: 'PER_STUDY' as const,
    monthlyFeeMinor: 0,
    includedStudies: 0,
    perStudyMinor: 1500,
  };
  const sub = {
    kind: 'SUBSCRIPTION' as const,
    monthlyFeeMinor: 2_500_000,
    includedStudies: 1000,
    perStudyMinor: 1200,
  };
  it.each([
    // plan, studies, subtotal, gst, total, charged
    [perStudy, 0, 0, 0, 0, 0],
    [perStudy, 7, 10_500, 1_890, 12_390, 7],
    [sub, 0, 2_500_000, 450_000, 2_950_000, 0],
    [sub, 1000, 2_500_000, 450_000, 2_950_000, 0],
    [sub, 1003, 2_503_600, 450_648, 2_954_248, 3],
  ])('%o with %i studies', (plan, studies, subtotal, gst, total, charged) => {
    const a = platformInvoiceAmounts(plan, studies);
    expect(a).toMatchObject({
      subtotalMinor: subtotal,
      gstMinor: gst,
      totalMinor: total,
      studiesCharged: charged,
    });
    expect(a.feeMinor + a.usageMinor).toBe(a.subtotalMinor);
  });
  it('rounds GST once on the subtotal', () => {
    // 3 studies × 1 paisa = 3 paise; 18 % = 0.54 → 1 paisa (not 3 × round(0.18) = 0)
    expect(platformInvoiceAmounts({ ...perStudy, perStudyMinor: 1 }, 3).gstMinor).toBe(1);
  });
  it('owes what is left, never below zero', () => {
    expect(platformInvoiceDueMinor(1000, 400)).toBe(600);
    expect(platformInvoiceDueMinor(1000, 1400)).toBe(0);
  });
});

describe('subscription rules', () => {
  const now = new Date('2026-11-27T10:00:00Z');
  const past = new Date('2026-11-27T09:59:59Z');
  const future = new Date('2026-12-27T10:00:00Z');
  it.each([
    [null, false],
    [{ status: 'TRIAL' as const, expiresAt: future }, false],
    [{ status: 'TRIAL' as const, expiresAt: past }, true],
    [{ status: 'ACTIVE' as const, expiresAt: now }, true],
    [{ status: 'ACTIVE' as const, expiresAt: null }, false],
    [{ status: 'EXPIRED' as const, expiresAt: future }, true],
    [{ status: 'CANCELLED' as const, expiresAt: past }, false],
  ])('%o expired: %s', (sub, expired) => {
    expect(isSubscriptionExpired(sub, now)).toBe(expired);
    if (sub) expect(effectiveSubscriptionStatus(sub, now) === 'EXPIRED').toBe(expired);
  });
  it.each([
    ['2026-01-31T00:00:00Z', 1, '2026-02-28T00:00:00.000Z'],
    ['2026-12-15T05:00:00Z', 1, '2027-01-15T05:00:00.000Z'],
    ['2026-03-31T00:00:00Z', 12, '2027-03-31T00:00:00.000Z'],
  ])('addMonths(%s, %i) = %s', (from, months, to) => {
    expect(addMonths(new Date(from), months).toISOString()).toBe(to);
  });
  it('extends from the later of now and the paid-through date', () => {
    expect(extendedExpiry(past, now).toISOString()).toBe('2026-12-27T10:00:00.000Z');
    expect(extendedExpiry(future, now).toISOString()).toBe('2027-01-27T10:00:00.000Z');
    expect(extendedExpiry(null, now).toISOString()).toBe('2026-12-27T10:00:00.000Z');
  });
  it('next period rolls the year', () => {
    expect(nextPeriod('2026-12')).toBe('2027-01');
    expect(nextPeriod('2026-09')).toBe('2026-10');
  });
  it('platform billing: the role and the operator group, both', () => {
    expect(canUsePlatformBilling(['ROLE_ADMIN_BILLER'], true)).toBe(true);
    expect(canUsePlatformBilling(['ROLE_RADFLOW_SALES'], true)).toBe(true);
    expect(canUsePlatformBilling(['ROLE_ADMIN_BILLER'], false)).toBe(false);
    expect(canUsePlatformBilling(['ROLE_ADMIN', 'ROLE_GROUP', 'ROLE_BILLER'], true)).toBe(false);
  });
});
