// No server imports: the browser stories read their PDFs with this too (e2e/support/documents.ts).

/**
 * A PDF's text as pdfjs reads it (the way document-scripts.test.ts reads it), one string per page:
 * the items in order, a line end where pdfjs marks one, whitespace runs as one space. By default
 * items are not joined with a space of our own: pdfmake draws "INV-" and "0042" of a hyphenated word
 * as two runs, and pdfjs already gives the gaps between words and cells as spaces. `between: ' '`
 * puts one between every two items (tests whose phrases were written against that reading).
 */
export async function pdfPageTexts(
  bytes: Uint8Array | Buffer,
  opts: { between?: '' | ' ' } = {},
): Promise<string[]> {
  const between = opts.between ?? '';
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const pages: string[] = [];
  try {
    for (let i = 1; i <= doc.numPages; i++) {
      const content = await (await doc.getPage(i)).getTextContent();
      let text = '';
      for (const item of content.items)
        if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '') + between;
      pages.push(`${text}\n`.replace(/\s+/g, ' '));
    }
  } finally {
    await doc.destroy();
  }
  return pages;
}

/** The pages of {@link pdfPageTexts} as one string. */
export async function pdfText(
  bytes: Uint8Array | Buffer,
  opts: { between?: '' | ' ' } = {},
): Promise<string> {
  return (await pdfPageTexts(bytes, opts)).join('').replace(/\s+/g, ' ');
}
