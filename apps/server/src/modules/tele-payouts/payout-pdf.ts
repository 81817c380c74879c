import { eq } from 'drizzle-orm';
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import {
  BILLING_DOCUMENT_STATUS_LABELS,
  BILLING_PAYMENT_MODE_LABELS,
  PRICE_CHARGE_LABELS,
  type TPayoutStatementDetail,
  formatRupees,
  rupeesToMinor,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import { groups } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { renderPdfDefinition } from '../report-documents/pdf-document.js';
import { readPayoutStatement } from './payout-statements.js';

/*
 * The payout statement PDF (A4): the group that pays, the doctor, the period, every line as the
 * ledger holds it, the total, what was paid and what is due. Every amount printed is a stored paise
 * amount through core formatRupees (no arithmetic here but the sums the ledger already holds).
 */

const money = (rupees: number) => formatRupees(rupeesToMinor(rupees));

export function payoutStatementDefinition(
  s: TPayoutStatementDetail,
  groupName: string,
): TDocumentDefinitions {
  const right = (text: string) => ({ text, alignment: 'right' as const });
  const th = (text: string) => ({ text, bold: true, fillColor: '#eeeeee' });
  const content: Content[] = [
    { text: groupName, fontSize: 13, bold: true },
    { text: 'PAYOUT STATEMENT', fontSize: 15, bold: true, alignment: 'center', margin: [0, 6, 0, 8] },
    {
      table: {
        widths: ['auto', '*', 'auto', '*'],
        body: [
          [
            { text: 'Statement No.', bold: true },
            s.number,
            { text: 'Status', bold: true },
            BILLING_DOCUMENT_STATUS_LABELS[s.status],
          ],
          [
            { text: 'Doctor', bold: true },
            s.doctorName,
            { text: 'Issued', bold: true },
            s.issuedAt.slice(0, 10),
          ],
          [
            { text: 'Period', bold: true },
            `${s.periodStart} to ${s.periodEnd}`,
            { text: 'Reads', bold: true },
            `${s.counts.reads} reads, ${s.counts.addenda} addenda, ${s.counts.urgent} urgent`,
          ],
        ],
      },
      layout: 'lightHorizontalLines',
      fontSize: 9,
    },
    { text: 'Lines', bold: true, fontSize: 11, margin: [0, 10, 0, 4] },
    {
      table: {
        headerRows: 1,
        widths: [16, 'auto', '*', 'auto', 'auto', 'auto', 'auto'],
        body: [
          ['#', 'Date', 'Patient', 'Modality', 'Part', 'Charge', 'Amount'].map(th),
          ...s.lines.map((l, i) => [
            String(i + 1),
            l.chargedOn,
            l.patientName.replace(/\^/g, ' ').trim(),
            l.modality,
            l.studyPart,
            PRICE_CHARGE_LABELS[l.charge],
            right(money(l.amount)),
          ]),
        ],
      },
      layout: 'lightHorizontalLines',
      fontSize: 8,
    },
    {
      table: {
        widths: ['*', 'auto'],
        body: [
          [{ text: 'Total', bold: true }, right(money(s.total))],
          [{ text: 'Paid', bold: true }, right(money(s.paid))],
          [{ text: 'Due', bold: true }, right(money(s.due))],
        ],
      },
      layout: 'lightHorizontalLines',
      fontSize: 10,
      margin: [260, 8, 0, 0],
    },
  ];
  if (s.payments.length > 0) {
    content.push({ text: 'Payments', bold: true, fontSize: 11, margin: [0, 10, 0, 4] });
    content.push({
      table: {
        headerRows: 1,
        widths: ['auto', 'auto', '*', 'auto'],
        body: [
          ['Date', 'Mode', 'Reference', 'Amount'].map(th),
          ...s.payments.map((p) => [
            p.receivedOn,
            BILLING_PAYMENT_MODE_LABELS[p.mode],
            p.reference,
            right(money(p.amount)),
          ]),
        ],
      },
      layout: 'lightHorizontalLines',
      fontSize: 9,
    });
  }
  return { pageSize: 'A4', pageMargins: [36, 36, 36, 40], content, defaultStyle: { fontSize: 9 } };
}

/** The statement's PDF, for whoever may read the statement (404 otherwise). */
export async function payoutStatementPdf(ctx: AppContext, auth: TAuth, id: number) {
  const statement = await readPayoutStatement(ctx.db, auth, id);
  const [group] = await ctx.db
    .select({ name: groups.name })
    .from(groups)
    .where(eq(groups.id, auth.user.groupId));
  return {
    fileName: `${statement.number}.pdf`,
    body: await renderPdfDefinition(payoutStatementDefinition(statement, group?.name ?? '')),
  };
}
