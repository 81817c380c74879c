/**
 * A PDF of JPEG images laid out in a grid, one page per copy (PDF 1.4, images as DCTDecode
 * XObjects shared by the pages): what an ordinary printer's command (`lp`) takes. Written by hand
 * because it is this small; no PDF library in the router.
 */
export interface PdfImage {
  /** Baseline JPEG bytes. */
  readonly jpeg: Uint8Array;
  readonly width: number;
  readonly height: number;
  readonly channels: 1 | 3;
}

export interface PdfLayout {
  /** Page size in points (1/72 inch). */
  readonly pageWidth: number;
  readonly pageHeight: number;
  readonly columns: number;
  readonly rows: number;
  readonly copies: number;
  /** Margin around the grid and gap between cells, points. */
  readonly margin?: number;
}

export function composePdf(images: readonly PdfImage[], layout: PdfLayout): Buffer {
  const margin = layout.margin ?? 18;
  const objects: (Buffer | string)[] = [];
  const add = (body: Buffer | string) => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add(''); // filled in below, once the pages object's number is known
  const pagesId = add('');
  const imageIds = images.map((image) =>
    add(
      Buffer.concat([
        Buffer.from(
          `<< /Type /XObject /Subtype /Image /Width ${image.width} /Height ${image.height} ` +
            `/ColorSpace /${image.channels === 1 ? 'DeviceGray' : 'DeviceRGB'} /BitsPerComponent 8 ` +
            `/Filter /DCTDecode /Length ${image.jpeg.length} >>\nstream\n`,
          'latin1',
        ),
        Buffer.from(image.jpeg),
        Buffer.from('\nendstream', 'latin1'),
      ]),
    ),
  );
  const cellWidth = (layout.pageWidth - margin * (layout.columns + 1)) / layout.columns;
  const cellHeight = (layout.pageHeight - margin * (layout.rows + 1)) / layout.rows;
  const drawing = images
    .map((image, index) => {
      const column = index % layout.columns;
      const row = Math.floor(index / layout.columns);
      const scale = Math.min(cellWidth / image.width, cellHeight / image.height);
      const w = image.width * scale;
      const h = image.height * scale;
      const x = margin + column * (cellWidth + margin) + (cellWidth - w) / 2;
      // PDF's origin is the bottom left; rows fill from the top.
      const y = layout.pageHeight - margin - row * (cellHeight + margin) - (cellHeight + h) / 2;
      return `q ${n(w)} 0 0 ${n(h)} ${n(x)} ${n(y)} cm /Im${index + 1} Do Q`;
    })
    .join('\n');
  const contentId = add(
    `<< /Length ${Buffer.byteLength(drawing, 'latin1')} >>\nstream\n${drawing}\nendstream`,
  );
  const xobjects = imageIds.map((id, index) => `/Im${index + 1} ${id} 0 R`).join(' ');
  const pageIds = Array.from({ length: layout.copies }, () =>
    add(
      `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 ${n(layout.pageWidth)} ${n(layout.pageHeight)}] ` +
        `/Resources << /XObject << ${xobjects} >> >> /Contents ${contentId} 0 R >>`,
    ),
  );
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesId} 0 R >>`;
  objects[pagesId - 1] =
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;

  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(offset);
    const chunk = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(chunk);
    offset += chunk.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>`,
    'startxref',
    String(offset),
    '%%EOF\n',
  ].join('\n');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

const n = (value: number) => (Math.round(value * 100) / 100).toString();
