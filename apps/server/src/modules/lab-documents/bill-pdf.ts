import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import {
  LAB_DOCUMENT_MESSAGES as M,
  formatDisplayTime,
  formatRupees,
  gstSplit,
  isAppointmentLine,
} from '@radflow/core';
import type { TBillDocumentData, TLabLetterhead } from './lab-document-data.js';

/*
 * The bill (invoice) and the appointment slip as pdfmake documents (A4), rendered by the report
 * documents' renderer (fonts of every script, shaping). What they print: DECISIONS.md.
 */

const rupees = formatRupees;

/** A line's amount: its original unit price times the quantity, less its refund (all stored). */
export function lineAmountMinor(line: { originalPriceMinor: number; quantity: number; refundMinor: number }) {
  return line.originalPriceMinor * line.quantity - line.refundMinor;
}

const SETTLEMENT_LABELS: Record<string, string> = {
  FULL_PRICE: 'Full price',
  PARTIAL_REFUND: 'Partial refund',
  FULL_REFUND: 'Full refund',
  CANCEL: 'Cancelled',
};

export const BASE_STYLES = {
  title: {
    fontSize: 15,
    bold: true,
    alignment: 'center' as const,
    margin: [0, 4, 0, 8] as [number, number, number, number],
  },
  labName: { fontSize: 13, bold: true },
  heading: { fontSize: 11, bold: true, margin: [0, 10, 0, 4] as [number, number, number, number] },
  label: { bold: true, color: '#333333' },
  small: { fontSize: 8, color: '#444444' },
  th: { bold: true, fillColor: '#eeeeee' },
  cancelled: {
    fontSize: 22,
    bold: true,
    color: '#b00020',
    alignment: 'center' as const,
    margin: [0, 0, 0, 6] as [number, number, number, number],
  },
};

/** The lab's letterhead block: logo, name, address and contact, tax numbers. */
export function letterheadBlock(letterhead: TLabLetterhead, images: Record<string, string>): Content {
  const { billing, contact } = letterhead;
  const lines: Content[] = [{ text: billing.accName || letterhead.name, style: 'labName' }];
  if (billing.accName && billing.accName !== letterhead.name) lines.push({ text: letterhead.name });
  if (contact.address) lines.push({ text: contact.address });
  const reach = [
    contact.mobileNumber && `Phone: ${contact.mobileNumber}`,
    contact.email && `Email: ${contact.email}`,
  ]
    .filter(Boolean)
    .join('   ');
  if (reach) lines.push({ text: reach });
  const gstin = billing.gstNumber || contact.gstNumber;
  const tax = [gstin && `GSTIN: ${gstin}`, billing.pan && `PAN: ${billing.pan}`].filter(Boolean).join('   ');
  if (tax) lines.push({ text: tax });
  const text: Content = { stack: lines, fontSize: 9 };
  if (!letterhead.logoDataUrl) return { ...text, margin: [0, 0, 0, 6] } as Content;
  images.lab_logo = letterhead.logoDataUrl;
  return {
    columns: [{ image: 'lab_logo', fit: [80, 60], width: 90 }, { ...text, width: '*' } as Content],
    columnGap: 10,
    margin: [0, 0, 0, 6],
  } as Content;
}

function pairs(rows: Array<[string, string]>): Content {
  const body: Content[][] = [];
  for (let i = 0; i < rows.length; i += 2) {
    const [a, b] = [rows[i], rows[i + 1]];
    body.push([
      { text: a?.[0] ?? '', style: 'label' },
      { text: a?.[1] ?? '' },
      { text: b?.[0] ?? '', style: 'label' },
      { text: b?.[1] ?? '' },
    ]);
  }
  return { table: { widths: ['auto', '*', 'auto', '*'], body }, layout: 'lightHorizontalLines', fontSize: 9 };
}

function patientRows(data: TBillDocumentData): Array<[string, string]> {
  const { patient } = data;
  return [
    ['Patient', patient.name],
    ['UHID', patient.uhidNumber],
    ['Age / Sex', [patient.ageString, patient.gender].filter(Boolean).join(' / ')],
    ['Mobile', patient.mobileNumber ?? ''],
  ];
}

function categoryText(data: TBillDocumentData, type: string): string {
  return data.bill.categories
    .filter((c) => c.type === type)
    .map((c) => c.name)
    .join(', ');
}

function footer(printedAt: string) {
  return (currentPage: number, pageCount: number) =>
    ({
      columns: [
        { text: `Printed ${printedAt}`, style: 'small' },
        { text: `Page ${currentPage} of ${pageCount}`, style: 'small', alignment: 'right' },
      ],
      margin: [36, 8, 36, 0],
    }) as Content;
}

/** The bill / invoice (issue 25 §5). */
export function billDefinition(data: TBillDocumentData, now: Date): TDocumentDefinitions {
  const zone = data.flags.displayTimeZone;
  const { bill, letterhead } = data;
  const images: Record<string, string> = {};
  const gstRate = letterhead.billing.gstPercentage;
  const cancelled = bill.status === 'CANCELLED';
  const content: Content[] = [letterheadBlock(letterhead, images)];
  content.push({ text: gstRate > 0 ? 'TAX INVOICE' : 'INVOICE', style: 'title' });
  if (cancelled) {
    content.push({ text: M.cancelled, style: 'cancelled' });
    if (bill.cancellationRemark)
      content.push({ text: `Reason: ${bill.cancellationRemark}`, alignment: 'center' });
  }
  const categories = categoryText(data, 'PATIENT_CATEGORY');
  const priorities = categoryText(data, 'PRIORITY');
  content.push(
    pairs([
      ['Invoice No.', bill.invoiceNumber],
      ['Bill Date', formatDisplayTime(bill.billDate, zone)],
      ...patientRows(data),
      ['Referring Doctor', data.doctor?.name ?? ''],
      ['Status', bill.status],
      ...(categories || priorities
        ? ([
            ['Category', categories],
            ['Priority', priorities],
          ] as Array<[string, string]>)
        : []),
    ]),
  );

  content.push({ text: 'Tests', style: 'heading' });
  const head = ['#', 'Code', 'Test', 'Modality', 'Qty', 'Price', 'Refund', 'Settlement', 'Amount'].map(
    (h) => ({
      text: h,
      style: 'th',
    }),
  );
  const right = (text: string) => ({ text, alignment: 'right' as const });
  content.push({
    table: {
      headerRows: 1,
      widths: [14, 'auto', '*', 'auto', 'auto', 'auto', 'auto', 'auto', 'auto'],
      body: [
        head,
        ...data.lines.map((l, i) => [
          String(i + 1),
          l.testCode,
          l.testName,
          l.labModality,
          right(String(l.quantity)),
          right(rupees(l.originalPriceMinor)),
          right(rupees(l.refundMinor)),
          SETTLEMENT_LABELS[l.settlementStatus] ?? l.settlementStatus,
          right(rupees(lineAmountMinor(l))),
        ]),
      ],
    },
    layout: 'lightHorizontalLines',
    fontSize: 9,
  });

  const discountLabel =
    bill.discountBasisPoints > 0 ? `Discount (${(bill.discountBasisPoints / 100).toFixed(2)}%)` : 'Discount';
  const summary: Array<[string, string]> = [
    ['Total Amount', rupees(bill.totalMinor)],
    [discountLabel, rupees(bill.discountMinor)],
    ['Advance Paid', rupees(bill.advancePaidMinor)],
    ['Net Payable', rupees(bill.finalMinor)],
    ['Due', rupees(bill.dueMinor)],
  ];
  if (gstRate > 0) {
    const split = gstSplit(bill.finalMinor, gstRate);
    const half = gstRate / 2;
    summary.push(
      ['Taxable Value', rupees(split.taxableMinor)],
      [`CGST @ ${half}%`, rupees(split.cgstMinor)],
      [`SGST @ ${half}%`, rupees(split.sgstMinor)],
      [`GST @ ${gstRate}% (included)`, rupees(split.gstMinor)],
    );
  }
  content.push({
    columns: [
      { text: '', width: '*' },
      {
        width: 'auto',
        table: {
          widths: ['auto', 90],
          body: summary.map(([k, v]) => [
            { text: k, style: 'label' },
            { text: v, alignment: 'right', bold: k === 'Net Payable' || k === 'Due' },
          ]),
        },
        layout: 'lightHorizontalLines',
        fontSize: 9,
      },
    ],
    margin: [0, 8, 0, 0],
  } as Content);

  content.push({ text: 'Payments', style: 'heading' });
  if (data.transactions.length === 0) content.push({ text: M.noTransactions, fontSize: 9 });
  else
    content.push({
      table: {
        headerRows: 1,
        widths: ['auto', '*', 'auto', 'auto', 'auto'],
        body: [
          ['Method', 'Transaction ID', 'Amount', 'When', 'Recorded by'].map((h) => ({
            text: h,
            style: 'th',
          })),
          ...data.transactions.map((t) => [
            t.paymentMethod,
            t.transactionId ?? '',
            right(rupees(t.amountMinor)),
            formatDisplayTime(t.recordedAt, zone),
            t.recordedByName,
          ]),
        ],
      },
      layout: 'lightHorizontalLines',
      fontSize: 9,
    });

  const b = letterhead.billing;
  const bank: Array<[string, string]> = (
    [
      ['Account Name', b.accName],
      ['Bank', b.bankName],
      ['Account No.', b.bankAccount],
      ['IFSC', b.bankIFSC],
      ['Branch', b.bankBranch],
    ] as Array<[string, string]>
  ).filter(([, v]) => v !== '');
  if (bank.length > 0) {
    content.push({ text: 'Bank Details', style: 'heading' });
    content.push(pairs(bank));
  }
  if (bill.remark) content.push({ text: `Remark: ${bill.remark}`, fontSize: 9, margin: [0, 8, 0, 0] });

  return {
    pageSize: 'A4',
    pageMargins: [36, 36, 36, 40],
    info: { title: `Invoice ${bill.invoiceNumber}`, creator: 'Radflow' },
    defaultStyle: { font: 'Roboto', fontSize: 10, lineHeight: 1.15 },
    images,
    ...(cancelled ? { watermark: { text: M.cancelled, color: '#b00020', opacity: 0.15, bold: true } } : {}),
    footer: footer(formatDisplayTime(now, zone)),
    content,
    styles: BASE_STYLES,
  };
}

/** The appointment slip: the lines with an appointment that are not cancelled. */
export function appointmentLines(data: TBillDocumentData) {
  return data.lines.filter(isAppointmentLine);
}

/** The appointment slip (spec-lab §7): patient, test, appointment name, date and time window, invoice. */
export function slipDefinition(data: TBillDocumentData, now: Date): TDocumentDefinitions {
  const zone = data.flags.displayTimeZone;
  const images: Record<string, string> = {};
  const content: Content[] = [
    letterheadBlock(data.letterhead, images),
    { text: 'APPOINTMENT SLIP', style: 'title' },
  ];
  if (data.bill.status === 'CANCELLED') content.push({ text: M.cancelled, style: 'cancelled' });
  content.push(pairs([['Invoice No.', data.bill.invoiceNumber], ...patientRows(data)]));
  content.push({ text: 'Appointments', style: 'heading' });
  const day = (d: Date | null) => formatDisplayTime(d, zone, { label: false }).slice(0, 10);
  const time = (d: Date | null) => formatDisplayTime(d, zone, { label: false }).slice(11, 16);
  content.push({
    table: {
      headerRows: 1,
      widths: ['*', 'auto', 'auto', 'auto', 'auto'],
      body: [
        ['Test', 'Modality', 'Appointment', 'Date', 'Time'].map((h) => ({ text: h, style: 'th' })),
        ...appointmentLines(data).map((l) => [
          `${l.testCode} ${l.testName}`,
          l.labModality,
          l.appointmentName ?? '',
          day(l.startTimeOfAppointment),
          `${time(l.startTimeOfAppointment)} – ${time(l.endTimeOfAppointment)}`,
        ]),
      ],
    },
    layout: 'lightHorizontalLines',
    fontSize: 10,
  });
  content.push({
    text: `Times are ${formatDisplayTime(now, zone).slice(20) || 'UTC'}.`,
    style: 'small',
    margin: [0, 8, 0, 0],
  });
  return {
    pageSize: 'A4',
    pageMargins: [36, 36, 36, 40],
    info: { title: `Appointment ${data.bill.invoiceNumber}`, creator: 'Radflow' },
    defaultStyle: { font: 'Roboto', fontSize: 10, lineHeight: 1.15 },
    images,
    footer: footer(formatDisplayTime(now, zone)),
    content,
    styles: BASE_STYLES,
  };
}
