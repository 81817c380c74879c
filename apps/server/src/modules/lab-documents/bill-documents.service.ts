import { AppError, LAB_DOCUMENT_MESSAGES as M } from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { TAuth } from '../../plugins/auth.js';
import { renderPdfDefinition } from '../report-documents/pdf-document.js';
import { appointmentLines, billDefinition, slipDefinition } from './bill-pdf.js';
import { loadBillDocumentData } from './lab-document-data.js';
import type { TLabFile } from './lab-summary.service.js';

/** The invoice number as a file name: letters, digits, '-' and '_' (the rest '_'). */
const safeName = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 80) || 'bill';

/** GET /api/lab/bill/print/{id}: the bill of the caller's lab (else 404) as a PDF. */
export async function printBill(ctx: AppContext, auth: TAuth, id: number): Promise<TLabFile> {
  const data = await loadBillDocumentData(ctx, auth, id);
  return {
    fileName: `invoice-${safeName(data.bill.invoiceNumber)}.pdf`,
    contentType: 'application/pdf',
    body: await renderPdfDefinition(billDefinition(data, ctx.now())),
  };
}

/** GET /api/lab/appointment-slip/print/{id}: 409 when no live line of the bill has an appointment. */
export async function printAppointmentSlip(ctx: AppContext, auth: TAuth, id: number): Promise<TLabFile> {
  const data = await loadBillDocumentData(ctx, auth, id);
  if (appointmentLines(data).length === 0) throw new AppError('CONFLICT', M.noAppointment, 'id');
  return {
    fileName: `appointment-${safeName(data.bill.invoiceNumber)}.pdf`,
    contentType: 'application/pdf',
    body: await renderPdfDefinition(slipDefinition(data, ctx.now())),
  };
}
