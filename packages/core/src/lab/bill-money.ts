import type { TBillCategoryType, TBillStatus, TSettlementStatus } from './entities.js';
import { toRupees } from './money.js';

/**
 * The bill's arithmetic (spec-lab §4 settlement rules, §5 Bill, §9 rounding), in integer paise. The
 * bill screen and the server both run it: the server recomputes every amount from the lines, the
 * discount choice and the ledger, and never stores a total a client sent.
 */

/** spec-lab §4–§5 messages shown by the bill screen and answered by the server, word for word. */
export const BILL_MESSAGES = {
  advanceAboveFinal: 'Advance Paid should be less than Final Amount',
  quantityResetsRefund: 'On changing quantity the refund amount would be reset to 0.',
  noNewTestsWithAppointment:
    'Cannot add new tests when an appointment is already scheduled. Please remove the appointment first.',
  selectSlotAndDate: 'Select slot and date before submitting',
  noSlotsForModality: 'No slots available for this modality',
  blockedSlotsNote: 'Note: The following slots are blocked for this date',
  undoCancelConfirm: 'Are you sure you want to undo the cancellation?',
} as const;

/** The payment dialog's form of 'Advance Paid should be less than Final Amount' (amounts in rupees). */
export function advanceAboveFinalMessage(advancePaise: number, finalPaise: number): string {
  return `Advance Paid: ${rupeeText(advancePaise)} should be less than Final Amount: ${rupeeText(finalPaise)}`;
}

/** The submit confirmation when money stays due. */
export function duePendingMessage(duePaise: number): string {
  return `Due Amount: ${rupeeText(duePaise)} is pending. Do you want to proceed?`;
}

/** An amount as the messages show it: rupees, decimals only when there are paise (150, 150.5). */
export function rupeeText(paise: number): string {
  return String(toRupees(paise));
}

// ---- lines ----

/** A bill line's money: the unit price (catalogue price plus attribute prices), quantity, refund. */
export interface TLineMoney {
  unitPaise: number;
  quantity: number;
  refundPaise: number;
  settlementStatus: TSettlementStatus;
}

/** The line's gross value before any refund: unit price × quantity. */
export function lineGrossPaise(line: Pick<TLineMoney, 'unitPaise' | 'quantity'>): number {
  return line.unitPaise * line.quantity;
}

/** What the line adds to the bill: price × quantity − refund. */
export function lineValuePaise(line: Pick<TLineMoney, 'unitPaise' | 'quantity' | 'refundPaise'>): number {
  return lineGrossPaise(line) - line.refundPaise;
}

/** spec-lab §5: a partial refund is at least ₹1. */
export const PARTIAL_REFUND_MIN_PAISE = 100;

export type TSettleResult = { ok: true; line: TLineMoney } | { ok: false; message: string };

/**
 * spec-lab §4: FULL_REFUND and CANCEL refund the whole line value, PARTIAL_REFUND refunds the amount
 * asked (₹1 … originalPrice × quantity), any other choice (FULL_PRICE) refunds nothing.
 */
export function settleLine(
  line: Pick<TLineMoney, 'unitPaise' | 'quantity'>,
  settlementStatus: TSettlementStatus,
  partialRefundPaise = 0,
): TSettleResult {
  const gross = lineGrossPaise(line);
  switch (settlementStatus) {
    case 'FULL_REFUND':
    case 'CANCEL':
      return { ok: true, line: { ...line, settlementStatus, refundPaise: gross } };
    case 'PARTIAL_REFUND':
      if (
        !Number.isInteger(partialRefundPaise) ||
        partialRefundPaise < PARTIAL_REFUND_MIN_PAISE ||
        partialRefundPaise > gross
      ) {
        return {
          ok: false,
          message: `The partial refund must be between 1 and ${rupeeText(gross)} (price × quantity)`,
        };
      }
      return { ok: true, line: { ...line, settlementStatus, refundPaise: partialRefundPaise } };
    default:
      return { ok: true, line: { ...line, settlementStatus: 'FULL_PRICE', refundPaise: 0 } };
  }
}

/**
 * spec-lab §4: a quantity change resets the line to FULL_PRICE with refund 0; when a partial refund
 * above 0 existed the screen asks first (BILL_MESSAGES.quantityResetsRefund): `confirm` says so.
 */
export function changeQuantity(
  line: TLineMoney,
  quantity: number,
): { line: TLineMoney; confirm: string | null } {
  const confirm =
    line.settlementStatus === 'PARTIAL_REFUND' && line.refundPaise > 0
      ? BILL_MESSAGES.quantityResetsRefund
      : null;
  return {
    line: {
      ...line,
      quantity: Math.max(1, Math.trunc(quantity)),
      settlementStatus: 'FULL_PRICE',
      refundPaise: 0,
    },
    confirm,
  };
}

/** A line is cancelled when its settlement status is CANCEL (it takes no appointment). */
export function isCancelledLine(line: Pick<TLineMoney, 'settlementStatus'>): boolean {
  return line.settlementStatus === 'CANCEL';
}

/** Why a bill line may not get a study now, word for word as the server answers (issue 25 §6). */
export const BILL_LINE_STUDY_REFUSALS = {
  billCancelled: 'This bill is cancelled',
  lineCancelled: 'This test is cancelled',
  lineRefunded: 'This test is refunded',
  hasStudy: 'This test already has a study',
} as const;

/**
 * Create Study from a bill line (and createPatientInRisWithoutShowingDialog): a line gets a study
 * only once (by Create Study or by images with its accession number), and not when the bill is
 * cancelled or the line cancelled or refunded whole — no one is scanned for a test not paid for.
 * Null when it may; else the reason. The bill screen offers the action on the same rule.
 */
export function billLineStudyRefusal(
  billStatus: TBillStatus,
  line: { studyId: number | null; settlementStatus: TSettlementStatus },
): string | null {
  if (line.studyId !== null) return BILL_LINE_STUDY_REFUSALS.hasStudy;
  if (billStatus === 'CANCELLED') return BILL_LINE_STUDY_REFUSALS.billCancelled;
  if (line.settlementStatus === 'CANCEL') return BILL_LINE_STUDY_REFUSALS.lineCancelled;
  if (line.settlementStatus === 'FULL_REFUND') return BILL_LINE_STUDY_REFUSALS.lineRefunded;
  return null;
}

// ---- discount and totals ----

/** A percent as hundredths (basis points): 12.5% = 1250. The percent has at most 2 decimals. */
export function percentToBasisPoints(percent: number): number {
  return Math.round(percent * 100);
}

export function basisPointsToPercent(basisPoints: number): number {
  return basisPoints / 100;
}

/** Whether a percent is 0–100 with at most 2 decimals (spec-lab §5 "step 0.01"). */
export function isDiscountPercent(percent: number): boolean {
  if (!Number.isFinite(percent) || percent < 0 || percent > 100) return false;
  return Math.abs(Math.round(percent * 100) - percent * 100) < 1e-6;
}

export type TDiscountChoice =
  { by: 'PERCENTAGE'; basisPoints: number } | { by: 'AMOUNT'; amountPaise: number };

export type TDiscountResult =
  | { ok: true; basisPoints: number; amountPaise: number }
  | { ok: false; field: 'discountPercentage' | 'discountAmount'; message: string };

/**
 * spec-lab §5, §9: by percent (0–100) the discount is that share of the total, to the paisa; by
 * amount (0 … total) the percent is derived and rounded to 2 decimals.
 */
export function applyDiscount(totalPaise: number, choice: TDiscountChoice): TDiscountResult {
  if (choice.by === 'PERCENTAGE') {
    if (!Number.isInteger(choice.basisPoints) || choice.basisPoints < 0 || choice.basisPoints > 10_000) {
      return {
        ok: false,
        field: 'discountPercentage',
        message: 'The discount percentage must be between 0 and 100',
      };
    }
    return {
      ok: true,
      basisPoints: choice.basisPoints,
      amountPaise: Math.round((totalPaise * choice.basisPoints) / 10_000),
    };
  }
  if (!Number.isInteger(choice.amountPaise) || choice.amountPaise < 0 || choice.amountPaise > totalPaise) {
    return {
      ok: false,
      field: 'discountAmount',
      message: `The discount amount must be between 0 and the total price ${rupeeText(totalPaise)}`,
    };
  }
  const basisPoints = totalPaise === 0 ? 0 : Math.round((choice.amountPaise * 10_000) / totalPaise);
  return { ok: true, basisPoints, amountPaise: choice.amountPaise };
}

/** spec-lab §9: the final amount is rounded to a whole rupee (half up). */
export function roundToRupee(paise: number): number {
  return Math.round(paise / 100) * 100;
}

/** The summary of a bill (spec-lab §2 bill screen: Total, Discount, Advance Paid, Net Payable, Due). */
export interface TBillTotals {
  totalPaise: number;
  discountBasisPoints: number;
  discountPaise: number;
  finalPaise: number;
  advancePaidPaise: number;
  /** spec-lab §4: due is true when the final amount exceeds the advance paid. */
  due: boolean;
  duePaise: number;
}

export type TBillTotalsResult =
  { ok: true; totals: TBillTotals } | { ok: false; field: string; message: string };

/**
 * Total = Σ line values; discount per the choice; final = total − discount to a whole rupee;
 * advance = Σ transactions; due = final − advance only when final > advance. An advance above the
 * final amount is refused ('Advance Paid should be less than Final Amount').
 */
export function billTotals(
  lines: readonly Pick<TLineMoney, 'unitPaise' | 'quantity' | 'refundPaise'>[],
  discount: TDiscountChoice,
  transactionsPaise: readonly number[],
): TBillTotalsResult {
  const totalPaise = lines.reduce((sum, line) => sum + lineValuePaise(line), 0);
  const applied = applyDiscount(totalPaise, discount);
  if (!applied.ok) return applied;
  const finalPaise = roundToRupee(totalPaise - applied.amountPaise);
  const advancePaidPaise = transactionsPaise.reduce((sum, amount) => sum + amount, 0);
  if (advancePaidPaise > finalPaise) {
    return { ok: false, field: 'advancePaid', message: BILL_MESSAGES.advanceAboveFinal };
  }
  const due = finalPaise > advancePaidPaise;
  return {
    ok: true,
    totals: {
      totalPaise,
      discountBasisPoints: applied.basisPoints,
      discountPaise: applied.amountPaise,
      finalPaise,
      advancePaidPaise,
      due,
      duePaise: due ? finalPaise - advancePaidPaise : 0,
    },
  };
}

/**
 * A payment added later (PUT /api/lab/bill/update-transaction, the payment dialog): more than 0 and
 * never above what is due. Answers the message, or null when the amount may be taken.
 */
export function paymentProblem(
  amountPaise: number,
  finalPaise: number,
  advancePaidPaise: number,
): string | null {
  if (!Number.isInteger(amountPaise) || amountPaise <= 0) return 'The amount must be greater than 0';
  if (advancePaidPaise + amountPaise > finalPaise) {
    return advanceAboveFinalMessage(advancePaidPaise + amountPaise, finalPaise);
  }
  return null;
}

// ---- categories ----

/** A category or priority entry of the lab's LAB_CATEGORY_PRIORITY setting. */
export interface TCategoryEntry {
  name: string;
  type: TBillCategoryType;
  discount: number;
  disabled?: boolean;
}

/**
 * spec-lab §5: a chosen PATIENT_CATEGORY gives the bill its discount percent (the discount fields are
 * disabled then); priorities carry discount 0. Answers the category's basis points, or null when no
 * patient category is chosen (the discount fields decide).
 */
export function categoryDiscountBasisPoints(chosen: readonly TCategoryEntry[]): number | null {
  const category = chosen.find((c) => c.type === 'PATIENT_CATEGORY');
  return category ? percentToBasisPoints(category.discount) : null;
}

// ---- film size and contrast ----

/** spec-lab §3 test attribute definitions (LAB_TEST_ATTRIBUTES data), prices in rupees. */
export type TAttributeDefinition =
  | {
      type: 'MODALITY_BASED_FILM_SIZE';
      modality: string;
      filmSize: { size: string; price: number; default?: boolean }[];
    }
  | {
      type: 'MODALITY_BASED_CONTRAST';
      modality: string;
      contrastVolume: { volume: string; price: number; default?: boolean }[];
    };

export type TAttributePriceResult = { ok: true; paise: number } | { ok: false; message: string };

/**
 * The price a line's film size and contrast add to its unit price (spec-lab §4 "a contrast price
 * change adjusts the line's original price by the difference"): the named entries of the lab's
 * definitions for the line's modality. A name with no definition is refused.
 */
export function attributePricePaise(
  definitions: readonly TAttributeDefinition[],
  modality: string,
  attributes: { filmSize?: string | null; contrastVolume?: string | null },
): TAttributePriceResult {
  let paise = 0;
  if (attributes.filmSize) {
    const entry = definitions
      .flatMap((d) => (d.type === 'MODALITY_BASED_FILM_SIZE' && d.modality === modality ? d.filmSize : []))
      .find((e) => e.size === attributes.filmSize);
    if (!entry)
      return { ok: false, message: `Film size ${attributes.filmSize} is not defined for ${modality}` };
    paise += Math.round(entry.price * 100);
  }
  if (attributes.contrastVolume) {
    const entry = definitions
      .flatMap((d) =>
        d.type === 'MODALITY_BASED_CONTRAST' && d.modality === modality ? d.contrastVolume : [],
      )
      .find((e) => e.volume === attributes.contrastVolume);
    if (!entry) {
      return { ok: false, message: `Contrast ${attributes.contrastVolume} is not defined for ${modality}` };
    }
    paise += Math.round(entry.price * 100);
  }
  return { ok: true, paise };
}
