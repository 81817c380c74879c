import { eq } from 'drizzle-orm';
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import {
  AppError,
  PLATFORM_TIME_ZONE,
  formatDisplayTime,
  formatRupees,
  platformInvoiceDueMinor,
} from '@radflow/core';
import type { TPlatformIssuer } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { groups, platformInvoices } from '../../db/schema.js';
import { renderPdfDefinition } from '../report-documents/pdf-document.js';
import { loadGroupBillingDetails } from '../tele-billing/ledger-context.js';
import { INVOICE_MESSAGES } from './invoices.js';

/** The issuer block of a platform invoice: its name, address and tax numbers (blank: not printed). */
export interface TPlatformInvoiceIssuer {
  name: string;
  address: string;
  gstNumber: string;
  pan: string;
}

/**
 * Who issues the platform's invoices (DECISIONS.md "PDF"): the configured name and address
 * (PLATFORM_BILLING_NAME / _ADDRESS), else the operator group's billing details as a group account
 * of it saved them in settings (account name), else the operator group's name; GSTIN and PAN from
 * those billing details. Read when the PDF is made, like the rest of the platform's settings.
 */
export async function loadPlatformInvoiceIssuer(
  db: DbOrTx,
  configured: TPlatformIssuer,
): Promise<TPlatformInvoiceIssuer> {
  const [operator] = await db
    .select({ id: groups.id, name: groups.name })
    .from(groups)
    .where(eq(groups.platformOperator, true))
    .orderBy(groups.id)
    .limit(1);
  const details = operator ? await loadGroupBillingDetails(db, operator.id) : null;
  return {
    name: configured.name ?? (details?.accName || operator?.name || ''),
    address: configured.address ?? '',
    gstNumber: details?.gstNumber ?? '',
    pan: details?.pan ?? '',
  };
}

type TInvoiceRow = typeof platformInvoices.$inferSelect;

/**
 * The invoice (or credit note) as a pdfmake document. Every amount printed is a stored column of the
 * row, formatted: nothing is recomputed, so the PDF equals the ledger.
 */
export function platformInvoiceDefinition(
  inv: TInvoiceRow,
  group: { name: string },
  issuer: TPlatformInvoiceIssuer,
): TDocumentDefinitions {
  const note = inv.kind === 'CREDIT_NOTE';
  const money = (minor: number) => ({ text: formatRupees(minor), alignment: 'right' as const });
  const lines: Content[][] = [
    [
      { text: 'Description', bold: true },
      { text: 'Amount', bold: true, alignment: 'right' },
    ],
  ];
  if (inv.feeMinor !== 0) lines.push([`Monthly fee — ${inv.planName}`, money(inv.feeMinor)]);
  lines.push([
    `Studies signed off: ${inv.studiesCounted}; charged: ${inv.studiesCharged} × ${formatRupees(inv.perStudyMinor)}` +
      (inv.includedStudies > 0 ? ` (above ${inv.includedStudies} included)` : ''),
    money(inv.usageMinor),
  ]);
  lines.push(['Subtotal', money(inv.subtotalMinor)]);
  lines.push([`GST ${inv.gstBasisPoints / 100}%`, money(inv.gstMinor)]);
  lines.push([
    { text: 'Total', bold: true },
    { ...money(inv.totalMinor), bold: true },
  ]);
  if (!note) {
    lines.push(['Paid', money(inv.paidMinor)]);
    lines.push(['Due', money(platformInvoiceDueMinor(inv.totalMinor, inv.paidMinor))]);
  }
  return {
    pageSize: 'A4',
    pageMargins: [40, 40, 40, 40],
    content: [
      { text: issuer.name, fontSize: 14, bold: true },
      {
        stack: [
          issuer.address,
          [issuer.gstNumber && `GSTIN: ${issuer.gstNumber}`, issuer.pan && `PAN: ${issuer.pan}`]
            .filter(Boolean)
            .join('   '),
        ].filter(Boolean),
        fontSize: 9,
        margin: [0, 0, 0, 10],
      },
      {
        text: note ? 'Credit note' : 'Invoice',
        fontSize: 15,
        bold: true,
        alignment: 'center',
        margin: [0, 0, 0, 8],
      },
      {
        columns: [
          { stack: [`Number: ${inv.number}`, `Billed to: ${group.name}`, `Period: ${inv.period}`] },
          {
            stack: [
              `Issued: ${formatDisplayTime(inv.issuedAt, PLATFORM_TIME_ZONE)}`,
              note ? `Reason: ${inv.reason ?? ''}` : `Due date: ${inv.dueDate}`,
              `Status: ${inv.status}`,
            ],
          },
        ],
        fontSize: 10,
        margin: [0, 0, 0, 10],
      },
      { table: { widths: ['*', 110], body: lines }, layout: 'lightHorizontalLines', fontSize: 10 },
    ],
    defaultStyle: { fontSize: 10 },
  };
}

/** GET …/invoices/{id}/pdf: any invoice, for the platform's billing roles only (the route guards). */
export async function platformInvoicePdf(
  ctx: { db: DbOrTx; platformIssuer: TPlatformIssuer },
  invoiceId: number,
) {
  const { db } = ctx;
  const [row] = await db
    .select({ invoice: platformInvoices, groupName: groups.name })
    .from(platformInvoices)
    .innerJoin(groups, eq(groups.id, platformInvoices.groupId))
    .where(eq(platformInvoices.id, invoiceId));
  if (!row) throw new AppError('NOT_FOUND', INVOICE_MESSAGES.notFound, 'invoiceId');
  return {
    fileName: `${row.invoice.number}.pdf`,
    body: await renderPdfDefinition(
      platformInvoiceDefinition(
        row.invoice,
        { name: row.groupName },
        await loadPlatformInvoiceIssuer(db, ctx.platformIssuer),
      ),
    ),
  };
}
