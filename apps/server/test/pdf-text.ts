// No server imports: the browser stories read their PDFs with this too (e2e/support/documents.ts).

/**
 * A PDF's text as pdfjs reads it (the way document-scripts.test.ts reads it): the items in order,
 * a line end where pdfjs marks one, whitespace runs as one space. Items are not joined with a space
 * of our own: pdfmake draws "INV-" and "0042" of a hyphenated word as two runs, and pdfjs already
 * gives the gaps between words and cells as spaces.
 */
export async function pdfText(bytes: Uint8Array | Buffer): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  let text = '';
  try {
    for (let i = 1; i <= doc.numPages; i++) {
      const content = await (await doc.getPage(i)).getTextContent();
      for (const item of content.items) if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
      text += '\n';
    }
  } finally {
    await doc.destroy();
  }
  return text.replace(/\s+/g, ' ');
}
