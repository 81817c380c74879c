import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { eventually } from './pages.js';

const FIXTURES = resolve(import.meta.dirname, '../../packages/dicom/test-fixtures');

interface TManifestFile {
  path: string;
  study_instance_uid: string | null;
  series_instance_uid: string | null;
  sop_instance_uid: string | null;
  patient_name: string | null;
}
const manifest = (
  JSON.parse(readFileSync(resolve(FIXTURES, 'manifest.json'), 'utf8')) as { files: TManifestFile[] }
).files;

const UID_CHAR = /[0-9.]/;

/** A UID of the same length as `uid`, unique to `salt` ('2.25.' + digits, PS3.5 §B.2). */
export function freshUid(uid: string, salt: string): string {
  const digest = BigInt(`0x${createHash('sha256').update(`${salt}:${uid}`).digest('hex')}`).toString();
  const digits = (digest + digest).slice(0, uid.length - 5).replace(/^0/, '1');
  return `2.25.${digits}`;
}

/** Replaces every whole occurrence of `from` (not followed by more UID characters) with `to` (same length). */
function replaceAll(bytes: Buffer, from: string, to: string): void {
  if (from.length !== to.length) throw new Error(`replacement must keep the length: ${from} → ${to}`);
  const needle = Buffer.from(from, 'latin1');
  for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1)) {
    const next = bytes[at + needle.length];
    if (next !== undefined && UID_CHAR.test(String.fromCharCode(next))) continue;
    bytes.write(to, at, 'latin1');
  }
}

/**
 * A corpus file as a new instance of this run: its study, series and SOP instance UIDs replaced
 * (same length, so every syntax but deflate stays valid), the patient name too when asked, and
 * optionally the transfer syntax (same length) to make a syntax the browser cannot decode.
 */
export function corpusCopy(
  path: string,
  salt: string,
  options: { patientName?: string; transferSyntax?: [string, string] } = {},
): { name: string; mimeType: string; buffer: Buffer; studyInstanceUid: string } {
  const entry = manifest.find((f) => f.path === path);
  if (!entry?.study_instance_uid || !entry.series_instance_uid || !entry.sop_instance_uid) {
    throw new Error(`${path}: not an image of the manifest`);
  }
  const bytes = Buffer.from(readFileSync(resolve(FIXTURES, path)));
  // Longest first, so a UID that starts another is not replaced inside it.
  const uids = [entry.sop_instance_uid, entry.series_instance_uid, entry.study_instance_uid].sort(
    (a, b) => b.length - a.length,
  );
  for (const uid of uids) replaceAll(bytes, uid, freshUid(uid, salt));
  if (options.patientName && entry.patient_name) {
    const name = options.patientName
      .padEnd(entry.patient_name.length, 'X')
      .slice(0, entry.patient_name.length);
    replaceAll(bytes, entry.patient_name, name);
  }
  if (options.transferSyntax) replaceAll(bytes, options.transferSyntax[0], options.transferSyntax[1]);
  return {
    name: path.split('/').pop() as string,
    mimeType: 'application/dicom',
    buffer: bytes,
    studyInstanceUid: freshUid(entry.study_instance_uid, salt),
  };
}

/** Uploads one file as the signed-in center user (POST /api/dicom-web/upload); the report row id. */
export async function uploadFile(page: Page, file: ReturnType<typeof corpusCopy>): Promise<number> {
  const res = await page.request.post('/api/dicom-web/upload', {
    multipart: { file: { name: file.name, mimeType: file.mimeType, buffer: file.buffer } },
  });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { stored: number; reportStatusIds: number[] };
  expect(body.stored).toBe(1);
  const [id] = body.reportStatusIds;
  expect(id).toBeDefined();
  return id as number;
}

/** What the canvas of a viewport shows: how many pixels are not black, and a checksum. */
export interface TCanvasPixels {
  lit: number;
  total: number;
  sum: number;
}

/** The viewer screen (issue 5): viewports, toolbar, placeholders. */
export class ViewerScreen {
  constructor(private readonly page: Page) {}

  async open(studyInstanceUid: string, id: number): Promise<void> {
    await this.page.goto(`/viewer/${encodeURIComponent(studyInstanceUid)}/${id}?v=2&d=1`);
  }

  viewport(index = 0): Locator {
    return this.page.getByTestId(`viewport-vp-${index}`);
  }

  /** Pixels read from the viewport's canvas (Cornerstone draws into a 2D canvas on screen). */
  async pixels(index = 0): Promise<TCanvasPixels> {
    return canvasPixels(this.viewport(index));
  }

  /** Waits until the viewport shows an image: at least 5% of its pixels are not black. */
  async waitForImage(index = 0): Promise<TCanvasPixels> {
    return waitForCanvasImage(this.viewport(index), 'the viewport shows an image');
  }

  /** One view of MPR (issue 5 §3). */
  mprView(view: 'axial' | 'sagittal' | 'coronal'): Locator {
    return this.page.getByTestId(`mpr-view-${view}`);
  }

  get mprButton(): Locator {
    return this.page.getByRole('toolbar', { name: 'Viewer tools' }).getByRole('button', { name: 'MPR' });
  }

  async expectOverlay(text: string | RegExp, index = 0): Promise<void> {
    await this.viewport(index).getByText(text).first().waitFor();
  }

  /** Drags across the middle of the viewport with the left button. */
  async drag(index = 0, from = [0.35, 0.4], to = [0.65, 0.6]): Promise<void> {
    await dragAcross(this.page, this.viewport(index), from, to);
  }

  /** Drawn annotations of the viewport (Cornerstone's SVG layer marks each text box with its uid). */
  annotationLabels(index = 0): Locator {
    return this.viewport(index).locator('svg.svg-layer [data-annotation-uid]');
  }
}

/** Pixels of the first canvas inside `root`: how many are not black, and a checksum. */
export async function canvasPixels(root: Locator): Promise<TCanvasPixels> {
  return root
    .locator('canvas')
    .first()
    .evaluate((canvas: HTMLCanvasElement) => {
      const context = canvas.getContext('2d');
      if (!context || canvas.width === 0) return { lit: 0, total: 0, sum: 0 };
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      let lit = 0;
      let sum = 0;
      for (let i = 0; i < data.length; i += 4) {
        const value = (data[i] as number) + (data[i + 1] as number) + (data[i + 2] as number);
        if (value > 24) lit += 1;
        sum = (sum + value * ((i >> 2) % 7919)) % 2147483647;
      }
      return { lit, total: data.length / 4, sum };
    });
}

/** Waits until the canvas inside `root` shows an image: at least 5% of its pixels are not black. */
export async function waitForCanvasImage(root: Locator, what: string): Promise<TCanvasPixels> {
  await root.locator('canvas').first().waitFor();
  await eventually(async () => {
    const { lit, total } = await canvasPixels(root);
    return total > 0 && lit / total > 0.05;
  }, what).toBe(true);
  return canvasPixels(root);
}

/** Drags with the left button from one relative point of `target` to another. */
export async function dragAcross(page: Page, target: Locator, from: number[], to: number[]): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('the viewport is not on screen');
  const at = ([x, y]: number[]) =>
    [box.x + box.width * (x as number), box.y + box.height * (y as number)] as const;
  const [x0, y0] = at(from);
  const [x1, y1] = at(to);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  for (let step = 1; step <= 8; step += 1) {
    await page.mouse.move(x0 + ((x1 - x0) * step) / 8, y0 + ((y1 - y0) * step) / 8);
  }
  await page.mouse.up();
}
