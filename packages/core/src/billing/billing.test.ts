import { describe, expect, it } from 'vitest';
import {
  type TPriceCandidate,
  billedParts,
  documentNumber,
  invoiceFigures,
  invoiceStatusOf,
  monthPeriod,
  percentOfMinor,
  priceInForce,
} from './index.js';

describe('percentOfMinor: the one rounding rule (half up, away from zero)', () => {
  it.each([
    [10_000, 1800, 1800],
    [1, 1800, 0], // 0.18 paise
    [3, 1800, 1], // 0.54 → 1
    [25, 2000, 5],
    [5, 1000, 1], // 0.5 → 1 (half up)
    [15, 1000, 2], // 1.5 → 2
    [-5, 1000, -1], // a credit mirrors the invoice
    [-15, 1000, -2],
    [123_456_789, 1800, 22_222_222], // 22,222,222.02
    [0, 1800, 0],
    [99_999, 1250, 12_500], // 12,499.875 → 12,500
    [1_000_000_000_000, 1800, 180_000_000_000],
  ])('%i paise × %i bp = %i', (amount, bp, expected) => {
    expect(percentOfMinor(amount, bp)).toBe(expected);
  });

  it('refuses fractions of a paisa and negative rates', () => {
    expect(() => percentOfMinor(1.5, 1800)).toThrow(RangeError);
    expect(() => percentOfMinor(100, -1)).toThrow(RangeError);
  });
});

describe('invoiceFigures', () => {
  it.each([
    { lines: [50_000, 50_000], adj: [], bp: 1800, sub: 100_000, tax: 18_000, total: 118_000 },
    { lines: [33_333], adj: [-3_333], bp: 1800, sub: 33_333, tax: 5_400, total: 35_400 },
    { lines: [999], adj: [], bp: 1850, sub: 999, tax: 185, total: 1_184 }, // 184.815 → 185
    { lines: [100], adj: [], bp: 0, sub: 100, tax: 0, total: 100 },
    { lines: [], adj: [500], bp: 1800, sub: 0, tax: 90, total: 590 },
    { lines: [-10_000], adj: [], bp: 1800, sub: -10_000, tax: -1_800, total: -11_800 }, // a credit note
  ])('$lines + $adj at $bp bp', ({ lines, adj, bp, sub, tax, total }) => {
    const f = invoiceFigures(lines, adj, bp);
    expect(f).toEqual({
      subtotalMinor: sub,
      adjustmentMinor: adj.reduce((a, b) => a + b, 0),
      taxBasisPoints: bp,
      taxMinor: tax,
      totalMinor: total,
    });
  });

  it.each([
    [{ totalMinor: 1000, paidMinor: 0, creditedMinor: 0 }, 'ISSUED'],
    [{ totalMinor: 1000, paidMinor: 1, creditedMinor: 0 }, 'PARTIALLY_PAID'],
    [{ totalMinor: 1000, paidMinor: 1000, creditedMinor: 0 }, 'PAID'],
    [{ totalMinor: 1000, paidMinor: 600, creditedMinor: 400 }, 'PAID'],
    [{ totalMinor: 1000, paidMinor: 0, creditedMinor: 1000 }, 'CANCELLED_BY_CREDIT'],
    [{ totalMinor: 1000, paidMinor: 0, creditedMinor: 300 }, 'ISSUED'],
  ] as const)('status of %o is %s', (doc, status) => {
    expect(invoiceStatusOf(doc)).toBe(status);
  });

  it('numbers and periods', () => {
    expect(documentNumber('TI', 2026, 1)).toBe('TI-2026-0001');
    expect(documentNumber('CN', 2026, 12345)).toBe('CN-2026-12345');
    expect(monthPeriod('2026-02')).toEqual({ periodStart: '2026-02-01', periodEnd: '2026-02-28' });
    expect(monthPeriod('2028-02')).toEqual({ periodStart: '2028-02-01', periodEnd: '2028-02-29' });
    expect(monthPeriod('2026-12')).toEqual({ periodStart: '2026-12-01', periodEnd: '2026-12-31' });
  });
});

describe('priceInForce', () => {
  let id = 0;
  const row = (p: Partial<TPriceCandidate>): TPriceCandidate => ({
    id: ++id,
    ownerId: null,
    modality: 'CT',
    studyPart: '',
    charge: 'READ',
    amountMinor: 100,
    effectiveFrom: '2026-01-01',
    ...p,
  });
  const defaultBase = row({ amountMinor: 500 });
  const defaultBaseLater = row({ amountMinor: 600, effectiveFrom: '2026-03-01' });
  const defaultHead = row({ studyPart: 'HEAD', amountMinor: 800 });
  const centerBase = row({ ownerId: 7, amountMinor: 450, effectiveFrom: '2026-02-15' });
  const centerChest = row({ ownerId: 7, studyPart: 'CHEST', amountMinor: 900 });
  const otherCenter = row({ ownerId: 8, amountMinor: 1 });
  const urgent = row({ charge: 'URGENT', amountMinor: 200 });
  const rows = [defaultBase, defaultBaseLater, defaultHead, centerBase, centerChest, otherCenter, urgent];
  const q = (p: Partial<Parameters<typeof priceInForce>[1]>) => ({
    ownerId: 7,
    modality: 'CT',
    studyPart: '',
    charge: 'READ' as const,
    day: '2026-02-01',
    ...p,
  });

  it.each([
    ['the default list before the center has its own', q({}), defaultBase],
    ['the center row from its effective date', q({ day: '2026-02-15' }), centerBase],
    ['the center row stays before a later default', q({ day: '2026-03-10' }), centerBase],
    [
      'another center: the default list, latest in force',
      q({ ownerId: 9, day: '2026-03-10' }),
      defaultBaseLater,
    ],
    ['a change is not retroactive', q({ ownerId: 9, day: '2026-02-28' }), defaultBase],
    ['a part of the default list', q({ studyPart: 'HEAD' }), defaultHead],
    ["the center's own part", q({ studyPart: 'CHEST' }), centerChest],
    ["an unpriced part: the modality's base", q({ studyPart: 'KNEE', day: '2026-02-20' }), centerBase],
    ['modality matched without case', q({ modality: 'ct' }), defaultBase],
    ['the urgent surcharge', q({ charge: 'URGENT' }), urgent],
    ['nothing before the first price', q({ day: '2025-12-31' }), null],
    ['nothing for an unpriced modality', q({ modality: 'MR' }), null],
    ['nothing for an unpriced charge', q({ charge: 'ADDENDUM' }), null],
  ])('%s', (_, query, expected) => {
    expect(priceInForce(rows, query)).toBe(expected);
  });

  it('billedParts: each part once, none = the base read', () => {
    expect(billedParts([])).toEqual(['']);
    expect(billedParts(['HEAD', ' HEAD', 'CHEST', ''])).toEqual(['HEAD', 'CHEST']);
  });
});
