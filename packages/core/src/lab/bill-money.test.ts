import { describe, expect, it } from 'vitest';
import {
  BILL_LINE_STUDY_REFUSALS,
  billLineStudyRefusal,
  BILL_MESSAGES,
  type TLineMoney,
  advanceAboveFinalMessage,
  applyDiscount,
  attributePricePaise,
  billTotals,
  categoryDiscountBasisPoints,
  changeQuantity,
  duePendingMessage,
  isDiscountPercent,
  lineValuePaise,
  paymentProblem,
  roundToRupee,
  settleLine,
} from './bill-money.js';
import { ZBillCancel, ZBillCreate, ZBillLineInput } from './bill-schemas.js';

const line = (unitPaise: number, quantity = 1, refundPaise = 0): TLineMoney => ({
  unitPaise,
  quantity,
  refundPaise,
  settlementStatus: 'FULL_PRICE',
});

describe('line value = price × quantity − refund', () => {
  it.each([
    [50_000, 1, 0, 50_000],
    [50_000, 3, 0, 150_000],
    [50_000, 3, 10_000, 140_000],
    [1_999, 2, 3_998, 0],
  ])('%i paise × %i − %i = %i', (unit, quantity, refund, value) =>
    expect(lineValuePaise(line(unit, quantity, refund))).toBe(value),
  );
});

describe('settlement rules (spec-lab §4)', () => {
  it.each([
    ['FULL_REFUND', 0, 100_000],
    ['CANCEL', 0, 100_000],
    ['FULL_PRICE', 5_000, 0],
    ['PARTIAL_REFUND', 100, 100],
    ['PARTIAL_REFUND', 100_000, 100_000],
    ['PARTIAL_REFUND', 25_050, 25_050],
  ] as const)('%s asked %i refunds %i of a 2 × ₹500 line', (status, asked, refund) => {
    const result = settleLine(line(50_000, 2), status, asked);
    expect(result).toEqual({
      ok: true,
      line: { unitPaise: 50_000, quantity: 2, settlementStatus: status, refundPaise: refund },
    });
  });

  it.each([0, 99, 100_001, 150.5])('a partial refund of %s paise is refused', (asked) => {
    const result = settleLine(line(50_000, 2), 'PARTIAL_REFUND', asked);
    expect(result).toEqual({
      ok: false,
      message: 'The partial refund must be between 1 and 1000 (price × quantity)',
    });
  });

  it('a quantity change resets the line to FULL_PRICE, refund 0, asking first after a partial refund', () => {
    const partial = { ...line(50_000, 2, 20_000), settlementStatus: 'PARTIAL_REFUND' as const };
    expect(changeQuantity(partial, 3)).toEqual({
      line: { unitPaise: 50_000, quantity: 3, refundPaise: 0, settlementStatus: 'FULL_PRICE' },
      confirm: 'On changing quantity the refund amount would be reset to 0.',
    });
    expect(changeQuantity(line(50_000, 2), 1).confirm).toBeNull();
    expect(changeQuantity(line(50_000, 2), 0).line.quantity).toBe(1);
  });
});

describe('which line may get a study (Create Study from a bill)', () => {
  const open = { studyId: null, settlementStatus: 'FULL_PRICE' } as const;
  it('an open line of a bill that stands may, also when partly refunded', () => {
    expect(billLineStudyRefusal('OPEN', open)).toBeNull();
    expect(billLineStudyRefusal('SCHEDULED', { ...open, settlementStatus: 'PARTIAL_REFUND' })).toBeNull();
  });
  it('refuses with the reason: a study already, a cancelled bill, a cancelled or wholly refunded line', () => {
    expect(billLineStudyRefusal('OPEN', { ...open, studyId: 7 })).toBe(BILL_LINE_STUDY_REFUSALS.hasStudy);
    expect(billLineStudyRefusal('CANCELLED', open)).toBe(BILL_LINE_STUDY_REFUSALS.billCancelled);
    expect(billLineStudyRefusal('OPEN', { ...open, settlementStatus: 'CANCEL' })).toBe(
      BILL_LINE_STUDY_REFUSALS.lineCancelled,
    );
    expect(billLineStudyRefusal('OPEN', { ...open, settlementStatus: 'FULL_REFUND' })).toBe(
      BILL_LINE_STUDY_REFUSALS.lineRefunded,
    );
  });
});

describe('discount', () => {
  it.each([
    [100_000, 1_000, 10_000],
    [99_900, 1_000, 9_990],
    [33_333, 3_333, 11_110],
    [100_000, 0, 0],
    [100_000, 10_000, 100_000],
  ])('total %i at %i basis points takes %i', (total, bp, amount) =>
    expect(applyDiscount(total, { by: 'PERCENTAGE', basisPoints: bp })).toEqual({
      ok: true,
      basisPoints: bp,
      amountPaise: amount,
    }),
  );

  it.each([
    [100_000, 10_000, 1_000],
    [300_000, 100_000, 3_333],
    [0, 0, 0],
    [70_000, 70_000, 10_000],
  ])('total %i less %i paise is %i basis points (percent to 2 decimals)', (total, amount, bp) =>
    expect(applyDiscount(total, { by: 'AMOUNT', amountPaise: amount })).toEqual({
      ok: true,
      basisPoints: bp,
      amountPaise: amount,
    }),
  );

  it('refuses a percent above 100 and an amount above the total', () => {
    expect(applyDiscount(100, { by: 'PERCENTAGE', basisPoints: 10_001 })).toMatchObject({
      ok: false,
      field: 'discountPercentage',
    });
    expect(applyDiscount(100_000, { by: 'AMOUNT', amountPaise: 100_001 })).toEqual({
      ok: false,
      field: 'discountAmount',
      message: 'The discount amount must be between 0 and the total price 1000',
    });
  });

  it.each([
    [0, true],
    [12.5, true],
    [33.33, true],
    [100, true],
    [100.01, false],
    [-1, false],
    [12.345, false],
  ])('%s is a discount percent: %s', (percent, ok) => expect(isDiscountPercent(percent)).toBe(ok));

  it('a patient category gives its percent; priorities give none', () => {
    expect(
      categoryDiscountBasisPoints([
        { name: 'URGENT', type: 'PRIORITY', discount: 0 },
        { name: 'STAFF', type: 'PATIENT_CATEGORY', discount: 12.5 },
      ]),
    ).toBe(1_250);
    expect(categoryDiscountBasisPoints([{ name: 'URGENT', type: 'PRIORITY', discount: 0 }])).toBeNull();
  });
});

describe('totals, final, advance, due', () => {
  it.each([
    [12_345, 12_300],
    [12_350, 12_400],
    [12_399, 12_400],
    [0, 0],
  ])('%i paise rounds to %i', (paise, rounded) => expect(roundToRupee(paise)).toBe(rounded));

  it('adds the lines, discounts, rounds the final to a rupee and owes the rest', () => {
    const result = billTotals(
      [line(49_950, 1), line(30_000, 2, 10_000)],
      { by: 'PERCENTAGE', basisPoints: 1_000 },
      [20_000, 5_000],
    );
    expect(result).toEqual({
      ok: true,
      totals: {
        totalPaise: 99_950,
        discountBasisPoints: 1_000,
        discountPaise: 9_995,
        finalPaise: 90_000,
        advancePaidPaise: 25_000,
        due: true,
        duePaise: 65_000,
      },
    });
  });

  it('owes nothing when paid in full', () => {
    const result = billTotals([line(50_000)], { by: 'AMOUNT', amountPaise: 0 }, [50_000]);
    expect(result).toMatchObject({ ok: true, totals: { due: false, duePaise: 0 } });
  });

  it("refuses an advance above the final amount with the spec's message", () => {
    expect(billTotals([line(50_000)], { by: 'AMOUNT', amountPaise: 10_000 }, [50_000])).toEqual({
      ok: false,
      field: 'advancePaid',
      message: 'Advance Paid should be less than Final Amount',
    });
  });

  it('a payment is above 0 and never above the due', () => {
    expect(paymentProblem(0, 100_000, 0)).toBe('The amount must be greater than 0');
    expect(paymentProblem(60_000, 100_000, 50_000)).toBe(
      'Advance Paid: 1100 should be less than Final Amount: 1000',
    );
    expect(paymentProblem(50_000, 100_000, 50_000)).toBeNull();
  });

  it('words the messages as the spec does', () => {
    expect(duePendingMessage(65_050)).toBe('Due Amount: 650.5 is pending. Do you want to proceed?');
    expect(advanceAboveFinalMessage(120_000, 100_000)).toBe(
      'Advance Paid: 1200 should be less than Final Amount: 1000',
    );
    expect(BILL_MESSAGES).toMatchObject({
      advanceAboveFinal: 'Advance Paid should be less than Final Amount',
      noNewTestsWithAppointment:
        'Cannot add new tests when an appointment is already scheduled. Please remove the appointment first.',
      selectSlotAndDate: 'Select slot and date before submitting',
      noSlotsForModality: 'No slots available for this modality',
      blockedSlotsNote: 'Note: The following slots are blocked for this date',
    });
  });
});

describe('film size and contrast prices', () => {
  const definitions = [
    {
      type: 'MODALITY_BASED_FILM_SIZE' as const,
      modality: 'DX',
      filmSize: [{ size: '14x17', price: 50, default: true }],
    },
    {
      type: 'MODALITY_BASED_CONTRAST' as const,
      modality: 'CT',
      contrastVolume: [{ volume: '50ml', price: 1200.5 }],
    },
  ];
  it('adds the named entries of the modality', () => {
    expect(attributePricePaise(definitions, 'DX', { filmSize: '14x17' })).toEqual({ ok: true, paise: 5_000 });
    expect(attributePricePaise(definitions, 'CT', { contrastVolume: '50ml' })).toEqual({
      ok: true,
      paise: 120_050,
    });
    expect(attributePricePaise(definitions, 'CT', {})).toEqual({ ok: true, paise: 0 });
  });
  it('refuses a name the modality does not define', () => {
    expect(attributePricePaise(definitions, 'CT', { filmSize: '14x17' })).toEqual({
      ok: false,
      message: 'Film size 14x17 is not defined for CT',
    });
  });
});

describe('bill contract', () => {
  it('takes a minimal bill with defaults', () => {
    const bill = ZBillCreate.parse({ patientId: 1, labBillTests: [{ labTestId: 2, quantity: 1 }] });
    expect(bill.labBillTests[0]).toMatchObject({ settlementStatus: 'FULL_PRICE', refundAmount: 0 });
    expect(bill.labBillCategories).toEqual([]);
  });
  it('wants a slot and its times together', () => {
    const result = ZBillLineInput.safeParse({ labTestId: 2, quantity: 1, appointmentName: 'CT morning' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Select slot and date before submitting');
  });
  it('keeps a cancellation remark to 255 characters', () => {
    expect(ZBillCancel.safeParse({ id: 1, cancellationRemark: 'x'.repeat(255) }).success).toBe(true);
    expect(ZBillCancel.safeParse({ id: 1, cancellationRemark: 'x'.repeat(256) }).success).toBe(false);
  });
});
