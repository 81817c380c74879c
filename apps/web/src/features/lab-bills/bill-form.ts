import {
  applyDiscount,
  billTotals,
  categoryDiscountBasisPoints,
  formatDisplayTime,
  isCancelledLine,
  percentToBasisPoints,
  toPaise,
  toRupees,
  wallTimeIn,
  type TTestAttributeDefinition,
  type TBill,
  type TBillCategoryType,
  type TBillCreate,
  type TBillDoctor,
  type TBillPatient,
  type TBillTotalsResult,
  type TCategoryEntry,
  type TDiscountChoice,
  type TLabPaymentMethod,
  type TLabTest,
  type TSettlementStatus,
} from '@radflow/core';
import { attributesPaise, defaultAttributes } from './bill-attributes';

/**
 * The bill screen's form as plain data, and what it means in money: every amount comes from core
 * bill-money (billTotals, settleLine, changeQuantity); nothing here re-does the arithmetic. The
 * screen turns the form into the POST/PUT body with `billBody`.
 */

export interface TAppointmentChoice {
  appointmentName: string;
  /** ISO instants of the slot window. */
  start: string;
  end: string;
}

export interface TFormLine {
  /** React key: the saved line's id, or a fresh one for a new line. */
  key: string;
  /** The saved line's id (absent: a new line). */
  id?: number;
  labTestId: number;
  testCode: string;
  testName: string;
  labModality: string;
  department: string;
  quantity: number;
  settlementStatus: TSettlementStatus;
  refundPaise: number;
  filmSize: string | null;
  contrastVolume: string | null;
  appointment: TAppointmentChoice | null;
  /** A saved line keeps the unit price it was billed at while its attributes stay as saved. */
  saved: { unitPaise: number; filmSize: string | null; contrastVolume: string | null } | null;
  /** The unit price without film size and contrast: the catalogue's (new) or saved minus theirs. */
  basePaise: number;
}

export interface TBillForm {
  patient: TBillPatient | null;
  doctor: TBillDoctor | null;
  lines: TFormLine[];
  category: string;
  priority: string;
  /** Which discount field was typed last; its text is the one that counts. */
  discountBy: 'PERCENTAGE' | 'AMOUNT';
  discountText: string;
  remark: string;
  /** The advance taken now (a new bill only); a saved bill's advance is its ledger. */
  advanceText: string;
  paymentMethod: TLabPaymentMethod;
  transactionId: string;
  /** yyyy-MM-ddTHH:mm in the display zone (the datetime-local input). */
  billDate: string;
}

export const NONE = 'NONE';

/** The datetime-local text of an instant in the zone. */
export function localDateTimeText(at: Date | string, timeZone: string): string {
  return formatDisplayTime(at, timeZone, { label: false }).slice(0, 16).replace(' ', 'T');
}

/** The instant of a datetime-local text in the zone. */
export function instantOfLocal(text: string, timeZone: string): Date {
  return wallTimeIn(text.slice(0, 10), text.slice(11, 16), timeZone);
}

let keyCounter = 0;

export function lineFromTest(test: TLabTest, definitions: readonly TTestAttributeDefinition[]): TFormLine {
  keyCounter += 1;
  const attributes = defaultAttributes(definitions, test.labModality);
  return {
    key: `new-${keyCounter}`,
    labTestId: test.id,
    testCode: test.testCode,
    testName: test.testName,
    labModality: test.labModality,
    department: test.department,
    quantity: 1,
    settlementStatus: 'FULL_PRICE',
    refundPaise: 0,
    ...attributes,
    appointment: null,
    saved: null,
    basePaise: toPaise(test.price),
  };
}

const text = (v: unknown) => (typeof v === 'string' && v ? v : null);

export function formFromBill(bill: TBill, timeZone: string): TBillForm {
  const category = bill.labBillCategories.find((c) => c.type === 'PATIENT_CATEGORY');
  const priority = bill.labBillCategories.find((c) => c.type === 'PRIORITY');
  return {
    patient: bill.patient,
    doctor: bill.referringDoctor,
    lines: bill.labBillTests.map((l) => {
      const unitPaise = toPaise(l.originalPrice);
      const attributePrice =
        typeof l.attributes.attributePrice === 'number' ? toPaise(l.attributes.attributePrice) : 0;
      const filmSize = text(l.attributes.filmSize);
      const contrastVolume = text(l.attributes.contrastVolume);
      return {
        key: `line-${l.id}`,
        id: l.id,
        labTestId: l.labTestId,
        testCode: l.testCode,
        testName: l.testName,
        labModality: l.labModality,
        department: l.department,
        quantity: l.quantity,
        settlementStatus: l.settlementStatus,
        refundPaise: toPaise(l.refundAmount),
        filmSize,
        contrastVolume,
        appointment:
          l.appointmentName && l.startTimeOfAppointment && l.endTimeOfAppointment
            ? {
                appointmentName: l.appointmentName,
                start: l.startTimeOfAppointment,
                end: l.endTimeOfAppointment,
              }
            : null,
        saved: { unitPaise, filmSize, contrastVolume },
        basePaise: unitPaise - attributePrice,
      };
    }),
    category: category?.name ?? NONE,
    priority: priority?.name ?? NONE,
    ...savedDiscount(bill),
    remark: bill.remark ?? '',
    advanceText: '',
    paymentMethod: bill.paymentMethod,
    transactionId: '',
    billDate: localDateTimeText(bill.billDate, timeZone),
  };
}

/**
 * How a saved bill's discount reopens: by percent when the percent gives back the stored amount, else
 * by the amount (a discount typed as an amount keeps its paise; its rounded percent may not).
 */
function savedDiscount(bill: TBill): Pick<TBillForm, 'discountBy' | 'discountText'> {
  if (!bill.discountAmount) return { discountBy: 'PERCENTAGE', discountText: '' };
  const byPercent = applyDiscount(toPaise(bill.totalPrice), {
    by: 'PERCENTAGE',
    basisPoints: percentToBasisPoints(bill.discountPercentage),
  });
  return byPercent.ok && byPercent.amountPaise === toPaise(bill.discountAmount)
    ? { discountBy: 'PERCENTAGE', discountText: String(bill.discountPercentage) }
    : { discountBy: 'AMOUNT', discountText: String(bill.discountAmount) };
}

/** The unit price of a line now: as saved while its attributes are, else base plus their prices. */
export function unitPaiseOf(line: TFormLine, definitions: readonly TTestAttributeDefinition[]): number {
  if (
    line.saved &&
    line.saved.filmSize === line.filmSize &&
    line.saved.contrastVolume === line.contrastVolume
  ) {
    return line.saved.unitPaise;
  }
  return line.basePaise + attributesPaise(definitions, line.labModality, line);
}

/** A typed amount in paise, or null when it is no amount. */
export function paiseOfText(value: string): number | null {
  const trimmed = value.trim();
  if (!trimmed) return 0;
  const n = Number(trimmed);
  return Number.isFinite(n) && n >= 0 ? toPaise(n) : null;
}

export function chosenCategories(form: TBillForm, entries: readonly TCategoryEntry[]): TCategoryEntry[] {
  const pick = (name: string, type: TBillCategoryType) =>
    name === NONE ? [] : entries.filter((e) => e.type === type && e.name === name);
  return [...pick(form.category, 'PATIENT_CATEGORY'), ...pick(form.priority, 'PRIORITY')];
}

/** The discount the form asks for: a patient category's percent wins (its fields are disabled). */
export function discountChoiceOf(form: TBillForm, entries: readonly TCategoryEntry[]): TDiscountChoice {
  const category = categoryDiscountBasisPoints(chosenCategories(form, entries));
  if (category !== null) return { by: 'PERCENTAGE', basisPoints: category };
  const value = form.discountText.trim() ? Number(form.discountText) : 0;
  if (form.discountBy === 'PERCENTAGE') {
    return { by: 'PERCENTAGE', basisPoints: Number.isFinite(value) ? percentToBasisPoints(value) : -1 };
  }
  return { by: 'AMOUNT', amountPaise: Number.isFinite(value) ? toPaise(value) : -1 };
}

/** The summary (Total, Discount, Advance Paid, Net Payable, Due) by core billTotals. */
export function formTotals(
  form: TBillForm,
  ctx: {
    definitions: readonly TTestAttributeDefinition[];
    categories: readonly TCategoryEntry[];
    bill: TBill | null;
  },
): TBillTotalsResult {
  const lines = form.lines.map((l) => ({
    unitPaise: unitPaiseOf(l, ctx.definitions),
    quantity: l.quantity,
    refundPaise: l.refundPaise,
  }));
  const transactions = ctx.bill
    ? ctx.bill.labTransactions.map((t) => toPaise(t.amount))
    : [paiseOfText(form.advanceText) ?? -1].filter((p) => p !== 0);
  if (transactions.some((p) => p < 0)) {
    return { ok: false, field: 'advancePaid', message: 'Advance Paid must be an amount of 0 or more' };
  }
  return billTotals(lines, discountChoiceOf(form, ctx.categories), transactions);
}

/** spec-lab §5: the appointment button needs exactly one non-cancelled test and a live line. */
export function canBookAppointment(lines: readonly TFormLine[], line: TFormLine): boolean {
  return !isCancelledLine(line) && lines.filter((l) => !isCancelledLine(l)).length === 1;
}

export function hasAppointment(lines: readonly TFormLine[]): boolean {
  return lines.some((l) => l.appointment !== null && !isCancelledLine(l));
}

/** The POST/PUT body (the shared fields; the screen adds id and version on PUT). */
export function billBody(
  form: TBillForm,
  ctx: {
    definitions: readonly TTestAttributeDefinition[];
    categories: readonly TCategoryEntry[];
    bill: TBill | null;
    timeZone: string;
    /** The bill date text the form started with: the date is sent only when it was changed. */
    initialBillDate: string;
  },
): TBillCreate {
  const totals = formTotals(form, ctx);
  const chosen = chosenCategories(form, ctx.categories);
  const byCategory = chosen.some((c) => c.type === 'PATIENT_CATEGORY');
  const discountValue = form.discountText.trim() ? Number(form.discountText) : null;
  const body: TBillCreate = {
    patientId: form.patient?.id ?? 0,
    referringDoctorId: form.doctor?.id ?? null,
    labBillTests: form.lines.map((l) => ({
      ...(l.id === undefined ? {} : { id: l.id }),
      labTestId: l.labTestId,
      quantity: l.quantity,
      settlementStatus: l.settlementStatus,
      refundAmount: toRupees(l.refundPaise),
      attributes: { filmSize: l.filmSize, contrastVolume: l.contrastVolume },
      appointmentName: l.appointment?.appointmentName ?? null,
      startTimeOfAppointment: l.appointment?.start ?? null,
      endTimeOfAppointment: l.appointment?.end ?? null,
    })),
    labBillCategories: chosen.map((c) => ({ name: c.name, type: c.type })),
    remark: form.remark.trim() || null,
    paymentMethod: form.paymentMethod,
    transactionId: form.transactionId.trim() || null,
  };
  if (!byCategory && discountValue !== null) {
    body.discountBy = form.discountBy;
    if (form.discountBy === 'PERCENTAGE') body.discountPercentage = discountValue;
    else body.discountAmount = discountValue;
  }
  if (form.billDate && form.billDate !== ctx.initialBillDate) {
    body.billDate = instantOfLocal(form.billDate, ctx.timeZone).toISOString();
  }
  if (totals.ok) {
    body.totalPrice = toRupees(totals.totals.totalPaise);
    body.finalAmount = toRupees(totals.totals.finalPaise);
    body.advancePaid = toRupees(totals.totals.advancePaidPaise);
    body.dueAmount = toRupees(totals.totals.duePaise);
  }
  return body;
}
