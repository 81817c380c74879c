/**
 * Header parse time per file over a folder of DICOM files (ARCHITECTURE §4: index at ingest).
 * Usage: npx tsx bench/dicom-parse.ts <dir> [--json]
 * Prints, per file, the median µs of parseInstance (header up to pixel data, index record) and of
 * toDicomJson, then totals. Files that are refused are listed with their reason.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import dicomParser from 'dicom-parser';
import { DicomParseError, parseInstance, toDicomJson } from '../packages/dicom/src/index.js';

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return listFiles(path);
    return /\.(md|json|txt)$/i.test(name) ? [] : [path];
  });
}

function medianMicros(run: () => void): number {
  for (let i = 0; i < 5; i++) run(); // warm-up
  const samples: number[] = [];
  const deadline = performance.now() + 100;
  while (samples.length < 20 || (performance.now() < deadline && samples.length < 2000)) {
    const start = performance.now();
    run();
    samples.push((performance.now() - start) * 1000);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] ?? 0;
}

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: npx tsx bench/dicom-parse.ts <dir>\n');
  process.exit(2);
}
const files = listFiles(dir).sort();
const parseTimes: number[] = [];
const jsonTimes: number[] = [];
const baselineTimes: number[] = [];
const incomplete: string[] = [];
const refused: string[] = [];
const lines: string[] = [];
for (const path of files) {
  const bytes = new Uint8Array(readFileSync(path));
  const name = relative(dir, path);
  try {
    const parsed = parseInstance(bytes);
    const parseUs = medianMicros(() => parseInstance(bytes));
    const jsonUs = medianMicros(() => toDicomJson(parsed, { bulkDataUri: (r) => r.tag }));
    parseTimes.push(parseUs);
    if (parsed.pixelData && !parsed.pixelData.isComplete) incomplete.push(`  ${name}`);
    if (parsed.hasPreamble && !parsed.transferSyntax.isDeflated) {
      // dicom-parser alone on the same header, for comparison
      baselineTimes.push(medianMicros(() => dicomParser.parseDicom(bytes, { untilTag: 'x7fe00010' })));
    }
    jsonTimes.push(jsonUs);
    lines.push(
      `${parseUs.toFixed(1).padStart(9)} ${jsonUs.toFixed(1).padStart(9)} ${(bytes.length / 1024).toFixed(0).padStart(7)}  ${name}`,
    );
  } catch (error) {
    const reason = error instanceof DicomParseError ? `${error.code}: ${error.message}` : String(error);
    refused.push(`  ${name}: ${reason}`);
  }
}
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)] ?? 0;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
process.stdout.write(
  `${'parse µs'.padStart(9)} ${'json µs'.padStart(9)} ${'KiB'.padStart(7)}  file\n${lines.join('\n')}\n\n`,
);
process.stdout.write(
  `parsed ${parseTimes.length} of ${files.length} files: parseInstance median ${median(parseTimes).toFixed(1)} µs, mean ${mean(parseTimes).toFixed(1)} µs, max ${Math.max(...parseTimes).toFixed(1)} µs; ` +
    `toDicomJson median ${median(jsonTimes).toFixed(1)} µs, mean ${mean(jsonTimes).toFixed(1)} µs\n`,
);
process.stdout.write(
  `dicom-parser parseDicom(untilTag) alone on the ${baselineTimes.length} Part 10 files: median ${median(baselineTimes).toFixed(1)} µs, mean ${mean(baselineTimes).toFixed(1)} µs\n`,
);
if (incomplete.length > 0)
  process.stdout.write(
    `header parsed, pixel data incomplete (refused at ingest) ${incomplete.length}:\n${incomplete.join('\n')}\n`,
  );
if (refused.length > 0) process.stdout.write(`refused ${refused.length}:\n${refused.join('\n')}\n`);
