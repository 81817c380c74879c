// Image print (issue 27 §3): films to DCMTK's Print SCP (dcmprscp) by our Basic Grayscale Print SCU,
// and a PDF page to an ordinary printer's command (here a fake that records what it is given).
import { readFile, readdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseInstance } from '@radflow/dicom';
import { startStorescp } from '@radflow/dicom/test-support';
import { type RunningPrintScp, startPrintScp } from './dcmprscp.test-support.js';
import { PrintInputError } from './print-content.js';
import { CommandImagePrinter, DicomImagePrinter, PrintError } from './printers.js';

let scp: RunningPrintScp;
let work: string;
let images: Uint8Array[];

/** A horizontal gradient, gray, as PNG; and a color JPEG. */
async function testImages(): Promise<Uint8Array[]> {
  const gray = Buffer.alloc(60 * 40);
  for (let i = 0; i < gray.length; i++) gray[i] = Math.round(((i % 60) * 255) / 59);
  // A grey PNG (colour type 0): sharp would write it as RGB.
  const grey = new PNG({ width: 60, height: 40, colorType: 0, inputColorType: 0, bitDepth: 8 });
  grey.data = gray;
  const png = PNG.sync.write(grey, { colorType: 0, inputColorType: 0, bitDepth: 8 });
  const jpeg = await sharp({ create: { width: 30, height: 50, channels: 3, background: '#c03030' } })
    .jpeg()
    .toBuffer();
  return [new Uint8Array(png), new Uint8Array(jpeg)];
}

beforeAll(async () => {
  [scp, work, images] = await Promise.all([
    startPrintScp('FILMPRINTER'),
    mkdtemp(path.join(tmpdir(), 'radflow-print-')),
    testImages(),
  ]);
}, 30_000);
afterAll(async () => {
  await scp?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('DICOM print to dcmprscp', () => {
  it('creates the film session and film box, sets each image box with its pixels, prints and deletes', async () => {
    const printer = new DicomImagePrinter({
      host: '127.0.0.1',
      port: scp.port,
      calledAet: 'FILMPRINTER',
      callingAet: 'RADROUTER',
    });
    const result = await printer.print({
      images,
      content: '{"layout":"2,1","copies":2,"filmSize":"14INX17IN"}',
    });
    expect(result).toEqual({
      printer: 'DICOM',
      images: 2,
      copies: 2,
      layout: 'STANDARD\\2,1',
      filmSize: '14INX17IN',
    });

    const log = scp.output();
    for (const step of [
      /N-CREATE RQ[\s\S]*?BasicFilmSessionSOPClass[\s\S]*?NumberOfCopies/,
      /\(2000,0010\) IS \[2\]/,
      /N-CREATE RQ[\s\S]*?BasicFilmBoxSOPClass[\s\S]*?\[STANDARD\\2,1\]/,
      /N-SET RQ[\s\S]*?BasicGrayscaleImageBoxSOPClass[\s\S]*?\(0028,0010\) US 40\s[\s\S]*?\(0028,0011\) US 60\s/,
      /N-SET RQ[\s\S]*?\(0028,0010\) US 50\s[\s\S]*?\(0028,0011\) US 30\s/,
      /N-ACTION RQ[\s\S]*?BasicFilmBoxSOPClass[\s\S]*?N-ACTION RSP[\s\S]*?DIMSE Status\s*: 0x0000/,
      /N-DELETE RQ[\s\S]*?BasicFilmSessionSOPClass[\s\S]*?N-DELETE RSP[\s\S]*?0x0000/,
    ])
      expect(log).toMatch(step);

    // The print SCP keeps the job: a Stored Print object and one Hardcopy Grayscale Image per box.
    const files = await readdir(scp.databaseDir);
    expect(files.filter((f) => f.startsWith('SP_'))).toHaveLength(1);
    const hardcopies = files.filter((f) => f.startsWith('HG_'));
    expect(hardcopies).toHaveLength(2);
    const sizes = [];
    for (const file of hardcopies) {
      const parsed = parseInstance(new Uint8Array(await readFile(path.join(scp.databaseDir, file))), {
        requireUids: false,
      });
      sizes.push(`${parsed.image?.columns}x${parsed.image?.rows}`);
    }
    expect(sizes.sort()).toEqual(['30x50', '60x40']);
  });

  it('a printer that is not listening is a PrintError naming the printer', async () => {
    const printer = new DicomImagePrinter({
      host: '127.0.0.1',
      port: 1,
      calledAet: 'NONE',
      callingAet: 'RADROUTER',
    });
    await expect(printer.print({ images })).rejects.toThrow(PrintError);
    await expect(printer.print({ images })).rejects.toThrow(/NONE@127\.0\.0\.1:1/);
  });

  it('a step the printer refuses stops the film, named with the printer status', async () => {
    const printer = new DicomImagePrinter({
      host: '127.0.0.1',
      port: scp.port,
      calledAet: 'FILMPRINTER',
      callingAet: 'RADROUTER',
    });
    // This printer has no A3 film (its FilmSizeID list).
    const refused = printer.print({ images, content: { filmSize: 'A3' } });
    await expect(refused).rejects.toThrow(PrintError);
    await expect(refused).rejects.toThrow(/N-CREATE Film Box: the printer answered 0x/);
  });

  it('a peer that is not a print SCP (storescp) is a PrintError', async () => {
    const storescp = await startStorescp();
    try {
      const printer = new DicomImagePrinter({
        host: '127.0.0.1',
        port: storescp.port,
        calledAet: storescp.aeTitle,
        callingAet: 'RADROUTER',
      });
      await expect(printer.print({ images })).rejects.toThrow(/Print Management/);
    } finally {
      await storescp.stop();
    }
  });

  it('bad content is refused before anything is sent', async () => {
    const printer = new DicomImagePrinter({
      host: '127.0.0.1',
      port: 1,
      calledAet: 'NONE',
      callingAet: 'RADROUTER',
    });
    await expect(printer.print({ images, content: { layout: '1,1' } })).rejects.toBeInstanceOf(
      PrintInputError,
    );
  });
});

/** Each image of a PDF page (pdf-page.ts's objects): its /ColorSpace and its JPEG's components. */
function pdfImages(pdf: Buffer): Array<{ colorSpace: string; components: number }> {
  const found = [];
  for (const m of pdf
    .toString('latin1')
    .matchAll(/\/ColorSpace \/(\w+) [^>]*\/Length (\d+) >>\nstream\n/gu)) {
    const jpeg = pdf.subarray(m.index + m[0].length, m.index + m[0].length + Number(m[2]));
    // The frame header (SOF0-2): FF Cn, length, precision, height, width, components.
    let at = 2;
    while (at < jpeg.length && !(jpeg[at] === 0xff && jpeg[at + 1]! >= 0xc0 && jpeg[at + 1]! <= 0xc2)) {
      at += jpeg[at] === 0xff ? 2 + ((jpeg[at + 2]! << 8) | jpeg[at + 3]!) : 1;
    }
    found.push({ colorSpace: m[1]!, components: jpeg[at + 9] ?? 0 });
  }
  return found;
}

/** A stand-in for `lp`: writes its arguments and what it reads on stdin to files, or fails on demand. */
function fakeCommand(out: string, fail = false) {
  const script = fail
    ? "process.stderr.write('lp: printer is offline'); process.exit(3);"
    : "const fs = require('fs'); fs.writeFileSync(process.argv[1], fs.readFileSync(0)); fs.writeFileSync(process.argv[1] + '.args', JSON.stringify(process.argv.slice(2)));";
  return { command: process.execPath, args: ['-e', script, out, '-d', 'Reception'] };
}

describe('an ordinary printer through a command', () => {
  it('pipes one PDF page per copy with the images in the grid', async () => {
    const out = path.join(work, 'printed.pdf');
    const printer = new CommandImagePrinter(fakeCommand(out));
    const result = await printer.print({
      images,
      content: { layout: '1,2', copies: 3, orientation: 'LANDSCAPE' },
    });
    expect(result).toEqual({ printer: 'COMMAND', images: 2, copies: 3, layout: '1,2', filmSize: 'A4' });
    expect(JSON.parse(await readFile(`${out}.args`, 'utf8'))).toEqual(['-d', 'Reception']);

    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await pdfjs.getDocument({ data: new Uint8Array(await readFile(out)) }).promise;
    try {
      expect(doc.numPages).toBe(3);
      const page = await doc.getPage(2);
      // A4 landscape in points.
      expect(page.view.map(Math.round)).toEqual([0, 0, 842, 595]);
      const operators = await page.getOperatorList();
      const painted = operators.fnArray.filter((fn) => fn === pdfjs.OPS.paintImageXObject);
      expect(painted).toHaveLength(2);
      // Each image's colour space is what its JPEG holds (a grey one said RGB, or the reverse,
      // draws wrong or not at all).
      const spaces = pdfImages(await readFile(out));
      expect(spaces.length).toBeGreaterThanOrEqual(2);
      for (const { colorSpace, components } of spaces)
        expect(components).toBe(colorSpace === 'DeviceGray' ? 1 : 3);
    } finally {
      await doc.destroy();
    }
  });

  it('a command that fails is a PrintError with its message', async () => {
    const printer = new CommandImagePrinter(fakeCommand(path.join(work, 'never.pdf'), true));
    await expect(printer.print({ images })).rejects.toThrow(/exit 3\): lp: printer is offline/);
    const missing = new CommandImagePrinter({ command: path.join(work, 'no-such-lp') });
    await expect(missing.print({ images })).rejects.toThrow(PrintError);
  });
});
