import { describe, expect, it } from 'vitest';
import {
  documentsOfPrintOption,
  formatRupees,
  gstSplit,
  labDocumentPath,
  printOptionsOf,
} from './documents.js';

describe('gstSplit: the GST inside a price that includes it', () => {
  it.each([
    // amount, rate, taxable, gst, cgst, sgst
    [118_00, 18, 100_00, 18_00, 9_00, 9_00],
    [1000_00, 18, 847_46, 152_54, 76_27, 76_27],
    [1000_01, 5, 952_39, 47_62, 23_81, 23_81],
    [1_01, 18, 86, 15, 8, 7],
    [500_00, 0, 500_00, 0, 0, 0],
    [0, 18, 0, 0, 0, 0],
  ])('%i paise at %d%%', (amount, rate, taxable, gst, cgst, sgst) => {
    const split = gstSplit(amount, rate);
    expect(split).toEqual({ taxableMinor: taxable, gstMinor: gst, cgstMinor: cgst, sgstMinor: sgst });
    expect(split.taxableMinor + split.gstMinor).toBe(amount);
    expect(split.cgstMinor + split.sgstMinor).toBe(split.gstMinor);
  });
});

describe('print options', () => {
  it('invoice only, slip only, both (invoice first)', () => {
    expect(documentsOfPrintOption('INVOICE')).toEqual(['INVOICE']);
    expect(documentsOfPrintOption('APPOINTMENT_SLIP')).toEqual(['APPOINTMENT_SLIP']);
    expect(documentsOfPrintOption('BOTH')).toEqual(['INVOICE', 'APPOINTMENT_SLIP']);
    expect(labDocumentPath('INVOICE', 7)).toBe('/api/lab/bill/print/7');
    expect(labDocumentPath('APPOINTMENT_SLIP', 7)).toBe('/api/lab/appointment-slip/print/7');
  });

  it('rupees print with Indian grouping', () => {
    expect(formatRupees(123456789)).toBe('₹12,34,567.89');
    expect(formatRupees(-50)).toBe('-₹0.50');
  });
});

describe('printOptionsOf: the appointment slip only for a bill with a live appointment', () => {
  const at = '2026-12-08T03:30:00.000Z';
  it('offers the invoice only when no line is booked, or the booked one is cancelled', () => {
    expect(printOptionsOf([{ startTimeOfAppointment: null, settlementStatus: 'FULL_PRICE' }])).toEqual([
      'INVOICE',
    ]);
    expect(printOptionsOf([{ startTimeOfAppointment: at, settlementStatus: 'CANCEL' }])).toEqual(['INVOICE']);
  });
  it('offers all three when a line keeps its appointment', () => {
    expect(
      printOptionsOf([
        { startTimeOfAppointment: null, settlementStatus: 'FULL_PRICE' },
        { startTimeOfAppointment: at, settlementStatus: 'PARTIAL_REFUND' },
      ]),
    ).toEqual(['INVOICE', 'APPOINTMENT_SLIP', 'BOTH']);
  });
});
