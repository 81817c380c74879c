import {
  AppError,
  BILL_MESSAGES,
  type TBillCategoryType,
  type TBillCreate,
  type TBillLineInput,
  type TBillTotals,
  type TDiscountChoice,
  type TSettlementStatus,
  type TSlotWindow,
  attributePricePaise,
  billTotals,
  categoryDiscountBasisPoints,
  checkSlotChoice,
  isCancelledLine,
  isLabAdmin,
  lineValuePaise,
  percentToBasisPoints,
  settleLine,
  toPaise,
  toRupees,
} from '@radflow/core';
import { MESSAGE_NOT_ALLOWED, type TAuth } from '../../plugins/auth.js';
import type { TLabBillContext } from './lab-bill-context.js';

/**
 * A bill body made a bill: every amount recomputed from the catalogue, the stored lines, the
 * settings and the ledger with core bill-money (the client's totals are only checked), and every
 * rule of spec-lab §4–§5 that concerns the body itself. No database access: the service loads what
 * this needs and writes what it answers.
 */

/** A catalogue test as the bill reads it. */
export interface TCatalogueTest {
  id: number;
  testCode: string;
  testName: string;
  labModality: string;
  department: string;
  pricePaise: number;
  active: boolean;
}

/** A stored line as the bill reads it. */
export interface TStoredLine {
  id: number;
  labTestId: number;
  testCode: string;
  testName: string;
  labModality: string;
  department: string;
  quantity: number;
  unitPaise: number;
  refundPaise: number;
  settlementStatus: TSettlementStatus;
  attributes: Record<string, unknown>;
  appointmentName: string | null;
  start: Date | null;
  end: Date | null;
  accessionNumber: string;
}

/** A line as it will be stored. */
export interface TPricedLine {
  id: number | null;
  labTestId: number;
  testCode: string;
  testName: string;
  labModality: string;
  department: string;
  quantity: number;
  unitPaise: number;
  refundPaise: number;
  valuePaise: number;
  settlementStatus: TSettlementStatus;
  attributes: Record<string, unknown>;
  appointment: { window: TSlotWindow; changed: boolean } | null;
}

export interface TPricedBill {
  lines: TPricedLine[];
  categories: { name: string; type: TBillCategoryType; discount: number }[];
  totals: TBillTotals;
  status: 'OPEN' | 'SCHEDULED';
}

const bad = (message: string, field: string) => new AppError('BAD_REQUEST', message, field);

/** The price film size and contrast add to a line, kept in its attributes so an edit can swap it. */
const ATTRIBUTE_PRICE_KEY = 'attributePrice';

function attributesEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return (
    (a.filmSize ?? null) === (b.filmSize ?? null) && (a.contrastVolume ?? null) === (b.contrastVolume ?? null)
  );
}

function priceAttributes(
  ctx: TLabBillContext,
  modality: string,
  attributes: TBillLineInput['attributes'],
  field: string,
): { paise: number; stored: Record<string, unknown> } {
  const priced = attributePricePaise(ctx.attributeDefinitions, modality, attributes);
  if (!priced.ok) throw bad(priced.message, field);
  const stored: Record<string, unknown> = { ...attributes, [ATTRIBUTE_PRICE_KEY]: toRupees(priced.paise) };
  for (const key of ['filmSize', 'contrastVolume']) if (stored[key] == null) delete stored[key];
  return { paise: priced.paise, stored };
}

const storedAttributePaise = (attributes: Record<string, unknown>) => {
  const value = attributes[ATTRIBUTE_PRICE_KEY];
  return typeof value === 'number' ? toPaise(value) : 0;
};

export interface TPriceInput {
  auth: TAuth;
  ctx: TLabBillContext;
  body: TBillCreate;
  /** Tests of the catalogue named by new lines, by id (already limited to the caller's lab). */
  catalogue: Map<number, TCatalogueTest>;
  /** The bill as stored (PUT), or null (POST). */
  stored: {
    status: 'SCHEDULED' | 'OPEN' | 'COMPLETED' | 'CANCELLED';
    lines: TStoredLine[];
    ledgerPaise: number[];
  } | null;
}

/** The whole body, priced and checked. */
export function priceBill(input: TPriceInput): TPricedBill {
  const { auth, ctx, body, catalogue, stored } = input;
  const admin = isLabAdmin(auth.roles);
  const storedById = new Map((stored?.lines ?? []).map((l) => [l.id, l]));

  const seen = new Set<number>();
  const lines = body.labBillTests.map((line, index): TPricedLine => {
    const field = `labBillTests[${index}]`;
    const before = line.id === undefined ? null : storedById.get(line.id);
    if (line.id !== undefined && !before) throw bad(`${field}.id names no test of this bill`, `${field}.id`);
    if (before) {
      if (seen.has(before.id)) throw bad(`${field}.id is sent twice`, `${field}.id`);
      seen.add(before.id);
      if (before.labTestId !== line.labTestId) {
        throw bad(
          `${field}.labTestId cannot change on a saved line; cancel it and add the test`,
          `${field}.labTestId`,
        );
      }
    }

    // Unit price: a saved line keeps the price it was billed at ('The changes will only be reflected
    // in the new bill'); a new line takes the catalogue's. Film size and contrast add their prices.
    let unitPaise: number;
    let attributes: Record<string, unknown>;
    let base: Pick<TCatalogueTest, 'testCode' | 'testName' | 'labModality' | 'department'>;
    if (before) {
      base = before;
      if (attributesEqual(before.attributes, line.attributes)) {
        unitPaise = before.unitPaise;
        attributes = before.attributes;
      } else {
        if (stored?.status !== 'SCHEDULED') {
          throw new AppError(
            'CONFLICT',
            'Film size and contrast can be changed only while the bill is SCHEDULED or on a new test',
            `${field}.attributes`,
          );
        }
        const priced = priceAttributes(ctx, before.labModality, line.attributes, `${field}.attributes`);
        unitPaise = before.unitPaise - storedAttributePaise(before.attributes) + priced.paise;
        attributes = priced.stored;
      }
    } else {
      const test = catalogue.get(line.labTestId);
      if (!test) throw bad(`${field}.labTestId names no test of this lab`, `${field}.labTestId`);
      if (!test.active)
        throw bad(
          `${field}: the test ${test.testCode} is inactive and cannot be billed`,
          `${field}.labTestId`,
        );
      base = test;
      const priced = priceAttributes(ctx, test.labModality, line.attributes, `${field}.attributes`);
      unitPaise = test.pricePaise + priced.paise;
      attributes = priced.stored;
    }

    // Settlement (spec-lab §4): a quantity change resets a saved line to FULL_PRICE, refund 0; the
    // status sent then applies. Changing a line's settlement from what it was is the lab admin's.
    const quantityChanged = before !== null && before !== undefined && before.quantity !== line.quantity;
    const was =
      before && !quantityChanged
        ? { status: before.settlementStatus, refund: before.refundPaise }
        : { status: 'FULL_PRICE' as TSettlementStatus, refund: 0 };
    const settled = settleLine(
      { unitPaise, quantity: line.quantity },
      line.settlementStatus,
      toPaise(line.refundAmount),
    );
    if (!settled.ok) throw bad(`${field}: ${settled.message}`, `${field}.refundAmount`);
    if (!admin && (settled.line.settlementStatus !== was.status || settled.line.refundPaise !== was.refund)) {
      throw new AppError(
        'FORBIDDEN',
        `${MESSAGE_NOT_ALLOWED}: only a lab admin may change a settlement status`,
        `${field}.settlementStatus`,
      );
    }

    // The appointment: a real, unblocked window of a slot for the line's modality.
    let appointment: TPricedLine['appointment'] = null;
    if (line.appointmentName && line.startTimeOfAppointment && line.endTimeOfAppointment) {
      const start = new Date(line.startTimeOfAppointment);
      const end = new Date(line.endTimeOfAppointment);
      const changed =
        !before ||
        before.appointmentName !== line.appointmentName ||
        before.start?.getTime() !== start.getTime() ||
        before.end?.getTime() !== end.getTime();
      if (changed && !ctx.appointments) {
        throw bad('Appointments are off for this group (appointmentSupportRIS)', `${field}.appointmentName`);
      }
      if (isCancelledLine(settled.line)) {
        throw bad(
          `${field}: a cancelled test cannot hold an appointment; remove it`,
          `${field}.appointmentName`,
        );
      }
      if (changed) {
        const choice = checkSlotChoice(
          ctx.slots,
          base.labModality,
          { appointmentName: line.appointmentName, start, end },
          ctx.timeZone,
        );
        if (!choice.ok) throw bad(choice.message, `${field}.startTimeOfAppointment`);
        appointment = { window: choice.window, changed: true };
      } else {
        appointment = {
          window: {
            appointmentName: line.appointmentName,
            labModality: base.labModality,
            date: '',
            start,
            end,
            appointmentLimit: Number.MAX_SAFE_INTEGER,
            blocked: false,
          },
          changed: false,
        };
      }
    }

    return {
      id: before?.id ?? null,
      labTestId: line.labTestId,
      testCode: base.testCode,
      testName: base.testName,
      labModality: base.labModality,
      department: base.department,
      quantity: line.quantity,
      unitPaise,
      refundPaise: settled.line.refundPaise,
      valuePaise: lineValuePaise({
        unitPaise,
        quantity: line.quantity,
        refundPaise: settled.line.refundPaise,
      }),
      settlementStatus: settled.line.settlementStatus,
      attributes,
      appointment,
    };
  });

  // A saved line is never dropped: it is cancelled (settlement CANCEL) and stays on the bill.
  for (const line of stored?.lines ?? []) {
    if (!seen.has(line.id)) {
      throw bad(
        `The saved test ${line.testCode} cannot be removed from the bill; set its settlement status to CANCEL`,
        'labBillTests',
      );
    }
  }

  // spec-lab §5: the appointment button needs exactly one non-cancelled test, and no test may be added
  // while one holds an appointment.
  const live = lines.filter((l) => !isCancelledLine(l));
  if (lines.some((l) => l.appointment) && live.length !== 1) {
    throw bad(BILL_MESSAGES.noNewTestsWithAppointment, 'labBillTests');
  }

  const categories = chooseCategories(ctx, body);
  const totals = totalsOf(body, lines, categories, stored?.ledgerPaise ?? null);
  const ledgerPaise = stored?.ledgerPaise ?? (totals.advancePaidPaise > 0 ? [totals.advancePaidPaise] : []);
  return { lines, categories, totals, status: billStatusOf(lines, ledgerPaise) };
}

/**
 * spec-lab §4 "an appointment is a bill not yet generated while scheduled is true": a bill is
 * SCHEDULED while a live line holds an appointment and nothing has been paid; the first payment
 * generates it (OPEN). See DECISIONS.md.
 */
export function billStatusOf(
  lines: readonly {
    settlementStatus: TSettlementStatus;
    appointment?: unknown;
    appointmentName?: string | null;
  }[],
  ledgerPaise: readonly number[],
): 'OPEN' | 'SCHEDULED' {
  const booked = lines.some(
    (l) => !isCancelledLine(l) && ((l.appointment ?? null) !== null || (l.appointmentName ?? null) !== null),
  );
  return booked && ledgerPaise.reduce((a, b) => a + b, 0) === 0 ? 'SCHEDULED' : 'OPEN';
}

function chooseCategories(ctx: TLabBillContext, body: TBillCreate): TPricedBill['categories'] {
  if (body.labBillCategories.length === 0) return [];
  if (!ctx.categoriesOn) {
    throw bad('Categories and priorities are off for this group (enableRISCategory)', 'labBillCategories');
  }
  const chosen: TPricedBill['categories'] = [];
  for (const [index, pick] of body.labBillCategories.entries()) {
    const entry = ctx.categories.find(
      (c) => c.type === pick.type && c.name.toLowerCase() === pick.name.toLowerCase() && !c.disabled,
    );
    if (!entry) {
      throw bad(
        `labBillCategories[${index}]: no active ${pick.type} named ${pick.name}`,
        `labBillCategories[${index}]`,
      );
    }
    if (chosen.some((c) => c.type === entry.type)) {
      throw bad(`A bill has at most one ${entry.type}`, `labBillCategories[${index}]`);
    }
    chosen.push({
      name: entry.name,
      type: entry.type,
      discount: entry.type === 'PRIORITY' ? 0 : entry.discount,
    });
  }
  return chosen;
}

function totalsOf(
  body: TBillCreate,
  lines: readonly TPricedLine[],
  categories: TPricedBill['categories'],
  ledgerPaise: number[] | null,
): TBillTotals {
  const categoryBp = categoryDiscountBasisPoints(categories);
  const by =
    body.discountBy ??
    (body.discountPercentage != null ? 'PERCENTAGE' : body.discountAmount != null ? 'AMOUNT' : 'PERCENTAGE');
  const choice: TDiscountChoice =
    categoryBp !== null
      ? { by: 'PERCENTAGE', basisPoints: categoryBp }
      : by === 'AMOUNT'
        ? { by: 'AMOUNT', amountPaise: toPaise(body.discountAmount ?? 0) }
        : { by: 'PERCENTAGE', basisPoints: percentToBasisPoints(body.discountPercentage ?? 0) };
  // POST: the advance is the payment taken now; PUT: the ledger as stored.
  const ledger = ledgerPaise ?? (body.advancePaid && body.advancePaid > 0 ? [toPaise(body.advancePaid)] : []);
  const result = billTotals(
    lines.map((l) => ({ unitPaise: l.unitPaise, quantity: l.quantity, refundPaise: l.refundPaise })),
    choice,
    ledger,
  );
  if (!result.ok) throw bad(result.message, result.field);
  const t = result.totals;

  // The client's figures are checked, never used: a disagreement names the field.
  const sent: [string, number | null | undefined, number][] = [
    ['totalPrice', body.totalPrice, t.totalPaise],
    ['finalAmount', body.finalAmount, t.finalPaise],
    ['advancePaid', body.advancePaid, t.advancePaidPaise],
    ['dueAmount', body.dueAmount, t.duePaise],
    [
      'discountAmount',
      choice.by === 'AMOUNT' && categoryBp === null ? null : body.discountAmount,
      t.discountPaise,
    ],
    [
      'discountPercentage',
      choice.by === 'PERCENTAGE' && categoryBp === null ? null : body.discountPercentage,
      t.discountBasisPoints,
    ],
  ];
  for (const [field, value, paise] of sent) {
    if (value == null) continue;
    const mine = field === 'discountPercentage' ? percentToBasisPoints(value) : toPaise(value);
    if (mine !== paise) {
      const expected = field === 'discountPercentage' ? paise / 100 : toRupees(paise);
      throw bad(`${field}: sent ${value}, the bill comes to ${expected}`, field);
    }
  }
  return t;
}
