import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import {
  BILLING_DOCUMENT_STATUS_LABELS,
  type TBillingDetailsSetting,
  type TBillingDocumentDetail,
  ZBillingDetailsSetting,
  formatDisplayTime,
  formatRupees,
  rupeesToMinor,
} from '@radflow/core';

/*
 * The tele invoice / credit note PDF (issue 26 §1): the group's billing details as they were at issue
 * (the document's snapshot), the center, the line groups, subtotal, adjustments, GST and total. Every
 * amount printed is a ledger figure formatted by core formatRupees: nothing is computed here.
 */

export interface TInvoicePdfInput {
  doc: TBillingDocumentDetail;
  groupName: string;
  center: { name: string; email: string };
  billingDetails: unknown;
  timeZone: string;
}

const money = (rupees: number) => formatRupees(rupeesToMinor(rupees));

function issuerBlock(name: string, b: TBillingDetailsSetting): Content {
  const lines: Content[] = [{ text: b.accName || name, bold: true, fontSize: 13 }];
  const tax = [b.gstNumber && `GSTIN: ${b.gstNumber}`, b.pan && `PAN: ${b.pan}`].filter(Boolean).join('   ');
  if (tax) lines.push({ text: tax });
  return { stack: lines, fontSize: 9, margin: [0, 0, 0, 8] };
}

function bankBlock(b: TBillingDetailsSetting): Content | null {
  const rows = [
    b.bankName && `Bank: ${b.bankName}${b.bankBranch ? `, ${b.bankBranch}` : ''}`,
    b.bankAccount && `Account: ${b.bankAccount}`,
    b.bankIFSC && `IFSC: ${b.bankIFSC}`,
  ].filter(Boolean) as string[];
  if (rows.length === 0) return null;
  return {
    stack: [{ text: 'Pay to', bold: true }, ...rows.map((text) => ({ text }))],
    fontSize: 9,
    margin: [0, 12, 0, 0],
  };
}

export function invoiceDefinition(input: TInvoicePdfInput, now: Date): TDocumentDefinitions {
  const { doc } = input;
  const parsed = ZBillingDetailsSetting.safeParse(input.billingDetails);
  const billing = parsed.success ? parsed.data : ZBillingDetailsSetting.parse({});
  const credit = doc.kind === 'CREDIT_NOTE';
  const title = credit ? 'CREDIT NOTE' : doc.taxPercent > 0 ? 'TAX INVOICE' : 'INVOICE';
  const right = (text: string, bold = false) => ({ text, alignment: 'right' as const, bold });
  const content: Content[] = [
    issuerBlock(input.groupName, billing),
    { text: title, fontSize: 15, bold: true, alignment: 'center', margin: [0, 4, 0, 8] },
    {
      table: {
        widths: ['auto', '*', 'auto', '*'],
        body: [
          [
            { text: credit ? 'Credit Note No.' : 'Invoice No.', bold: true },
            doc.number,
            { text: 'Issued', bold: true },
            formatDisplayTime(doc.issuedAt, input.timeZone),
          ],
          [
            { text: 'Billed to', bold: true },
            input.center.name,
            { text: 'Period', bold: true },
            `${doc.periodStart} to ${doc.periodEnd}`,
          ],
          [
            { text: 'Email', bold: true },
            input.center.email,
            { text: credit ? 'Against' : 'Due date', bold: true },
            credit ? String(doc.creditedDocumentId ?? '') : (doc.dueDate ?? ''),
          ],
          [{ text: 'Status', bold: true }, BILLING_DOCUMENT_STATUS_LABELS[doc.status], '', ''],
        ],
      },
      layout: 'lightHorizontalLines',
      fontSize: 9,
    },
    { text: 'Lines', bold: true, fontSize: 11, margin: [0, 10, 0, 4] },
    {
      table: {
        headerRows: 1,
        widths: [14, '*', 'auto', 'auto', 'auto'],
        body: [
          ['#', 'Description', 'Qty', 'Rate', 'Amount'].map((text) => ({
            text,
            bold: true,
            fillColor: '#eeeeee',
          })),
          ...doc.lines.map((l, i) => [
            String(i + 1),
            l.description,
            right(String(l.quantity)),
            right(money(l.unit)),
            right(money(l.amount)),
          ]),
        ],
      },
      layout: 'lightHorizontalLines',
      fontSize: 9,
    },
  ];
  const summary: Array<[string, string]> = [['Subtotal', money(doc.subtotal)]];
  if (doc.adjustment !== 0) summary.push(['Adjustments', money(doc.adjustment)]);
  summary.push([`GST @ ${doc.taxPercent}%`, money(doc.tax)], ['Total', money(doc.total)]);
  if (!credit) {
    summary.push(['Paid', money(doc.paid)]);
    if (doc.credited !== 0) summary.push(['Credited', money(doc.credited)]);
    summary.push(['Outstanding', money(doc.outstanding)]);
  }
  content.push({
    columns: [
      { width: '*', text: '' },
      {
        width: 'auto',
        table: { body: summary.map(([k, v]) => [{ text: k, bold: k === 'Total' }, right(v, k === 'Total')]) },
        layout: 'lightHorizontalLines',
        fontSize: 10,
      },
    ],
    margin: [0, 10, 0, 0],
  });
  if (doc.note) content.push({ text: doc.note, fontSize: 9, margin: [0, 10, 0, 0] });
  const bank = bankBlock(billing);
  if (bank && !credit) content.push(bank);
  return {
    pageSize: 'A4',
    pageMargins: [36, 36, 36, 48],
    info: { title: `${title} ${doc.number}` },
    defaultStyle: { font: 'Roboto', fontSize: 10, lineHeight: 1.15 },
    content,
    footer: (page: number, count: number) =>
      ({
        columns: [
          { text: `Printed ${formatDisplayTime(now, input.timeZone)}`, fontSize: 8 },
          { text: `Page ${page} of ${count}`, fontSize: 8, alignment: 'right' },
        ],
        margin: [36, 8, 36, 0],
      }) as Content,
  };
}
