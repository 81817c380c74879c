import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import yauzl from 'yauzl';
import { storyServer } from './server.js';

/** The text of every page of a PDF, read back with pdf.js as the server's tests read it. */
export { pdfText } from '../../apps/server/test/pdf-text.js';

/** One entry of a zip (a .docx is one), or undefined when the zip has no such entry. */
export function zipEntry(buffer: Buffer, name: string): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== name) return zip.readEntry();
        zip.openReadStream(entry, (err, stream) => {
          if (err) return reject(err);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            zip.close();
            resolve(Buffer.concat(chunks));
          });
          stream.on('error', reject);
        });
      });
      zip.on('end', () => resolve(undefined));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** The words of a Word file's body (word/document.xml without its tags). */
export async function docxText(buffer: Buffer): Promise<string> {
  const xml = (await zipEntry(buffer, 'word/document.xml'))?.toString('utf8') ?? '';
  return xml
    .replace(/<\/w:p>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

/** The e-mails the stories' SMTP server accepted so far, raw (headers and MIME body), oldest first. */
export function receivedMail(): string[] {
  const dir = storyServer().mailDir;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.eml'))
    .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10))
    .map((n) => readFileSync(join(dir, n), 'utf8'));
}

/** The newest e-mail to `to`, polled until it arrives. */
export async function waitForMail(to: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = receivedMail()
      .filter((m) => new RegExp(`^To: .*${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'im').test(m))
      .at(-1);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to} reached the SMTP server`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The attachments of a raw MIME message: file name → decoded bytes (base64 parts only). */
export function mailAttachments(raw: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) return out;
  for (const part of raw.split(`--${boundary}`)) {
    const name = /filename\*?=(?:"([^"]+)"|([^;\r\n]+))/i.exec(part);
    if (!name) continue;
    const [headers, ...body] = part.split(/\r?\n\r?\n/);
    if (!/content-transfer-encoding:\s*base64/i.test(headers ?? '')) continue;
    out.set((name[1] ?? name[2] ?? '').trim(), Buffer.from(body.join('').replace(/\s+/g, ''), 'base64'));
  }
  return out;
}
