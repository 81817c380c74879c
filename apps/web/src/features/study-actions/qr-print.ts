/** The two QR print layouts of spec-core §2 "QR code print dialog (sticker or A4)". */
export const QR_LAYOUTS = ['sticker', 'a4'] as const;
export type TQrLayout = (typeof QR_LAYOUTS)[number];

export interface TQrPrintFacts {
  patientName: string;
  patientId: string;
  studyName: string;
  studyId: number;
  center: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Decision (the spec names the two layouts only): a 50 × 25 mm label with the QR and the patient line,
 * for a film jacket; or an A4 page with a large QR, the study facts and how to use the code.
 */
const PAGE_CSS: Record<TQrLayout, string> = {
  sticker: `@page { size: 50mm 25mm; margin: 1mm; }
body { margin: 0; font: 7pt sans-serif; }
.sheet { display: flex; gap: 1.5mm; align-items: center; height: 23mm; }
.sheet img { width: 22mm; height: 22mm; }
.facts p { margin: 0 0 0.6mm; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; max-width: 25mm; }`,
  a4: `@page { size: A4; margin: 20mm; }
body { margin: 0; font: 12pt sans-serif; text-align: center; }
.sheet img { width: 90mm; height: 90mm; margin: 10mm auto; display: block; }
.facts p { margin: 0 0 3mm; }`,
};

/** The printable page of a QR code: the code (a data: URL) and the study facts, escaped. */
export function buildQrPrintHtml(layout: TQrLayout, qrDataUrl: string, facts: TQrPrintFacts): string {
  const lines = [
    `<strong>${escapeHtml(facts.patientName)}</strong>`,
    `ID ${escapeHtml(facts.patientId)} · #${facts.studyId}`,
    escapeHtml(facts.studyName),
    ...(layout === 'a4' ? [escapeHtml(facts.center), 'Scan the code to open the report and images.'] : []),
  ];
  return `<!doctype html><html><head><meta charset="utf-8"><title>QR ${facts.studyId}</title>
<style>${PAGE_CSS[layout]}</style></head><body><div class="sheet">
<img alt="QR code" src="${escapeHtml(qrDataUrl)}"><div class="facts">${lines.map((l) => `<p>${l}</p>`).join('')}</div>
</div></body></html>`;
}
