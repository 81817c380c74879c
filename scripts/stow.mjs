#!/usr/bin/env node
// STOW-RS from the command line (README "Sending studies in"): builds the multipart/related body
// PS3.18 §10.5 asks for (one application/dicom part per file) and POSTs it, or only writes the body
// for curl. Node 20, no dependencies.
//
//   node scripts/stow.mjs --token "$TOKEN" [--url http://localhost:8080] FILE|DIR...
//   node scripts/stow.mjs --body body.mime [--boundary B] FILE|DIR...     (then curl, see README)
//
// Directories are walked; every file is sent (the server answers each one that is not DICOM with its
// reason). Files go in requests of at most --batch-mb MB (default 64), so a large folder is not one
// huge body. Exit status 0 when every instance was stored, 1 when any was refused, 2 on bad usage or
// an HTTP error.
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const USAGE =
  'usage: node scripts/stow.mjs (--token TOKEN [--url URL] | --body FILE [--boundary B]) [--batch-mb N] FILE|DIR...';

function parseArgs(argv) {
  const opts = {
    url: 'http://localhost:8080',
    token: null,
    body: null,
    boundary: null,
    batchMb: 64,
    paths: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--url') opts.url = value();
    else if (arg === '--token') opts.token = value();
    else if (arg === '--body') opts.body = value();
    else if (arg === '--boundary') opts.boundary = value();
    else if (arg === '--batch-mb') opts.batchMb = Number(value());
    else if (arg === '-h' || arg === '--help') throw new Error(USAGE);
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else opts.paths.push(arg);
  }
  if (opts.paths.length === 0) throw new Error('no file or directory given');
  if (!opts.token && !opts.body) throw new Error('give --token to send, or --body to write the body');
  if (!(opts.batchMb > 0)) throw new Error('--batch-mb must be a positive number');
  return opts;
}

/** Every file under the given paths, in a stable order. */
function filesOf(paths) {
  const out = [];
  const walk = (p) => {
    const stat = statSync(p);
    if (stat.isDirectory()) {
      for (const name of readdirSync(p).sort()) walk(path.join(p, name));
    } else if (stat.isFile()) out.push(p);
  };
  for (const p of paths) walk(p);
  return out;
}

/**
 * The multipart/related body of `files` and its Content-Type. The boundary must not occur in any
 * part (RFC 2046 §5.1.1): a random one is checked against the bytes, a given one too.
 */
export function stowBody(files, boundary = `radflow-${randomBytes(12).toString('hex')}`) {
  const chunks = [];
  for (const file of files) {
    const bytes = readFileSync(file);
    if (bytes.includes(Buffer.from(`--${boundary}`)))
      throw new Error(`the boundary ${boundary} occurs in ${file}: choose another`);
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Type: application/dicom\r\n\r\n`),
      bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    body: Buffer.concat(chunks),
    contentType: `multipart/related; type="application/dicom"; boundary=${boundary}`,
  };
}

/** Files grouped so that each request's files add up to at most `maxBytes` (one bigger file alone). */
function batches(files, maxBytes) {
  const out = [];
  let current = [];
  let size = 0;
  for (const file of files) {
    const bytes = statSync(file).size;
    if (current.length > 0 && size + bytes > maxBytes) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(file);
    size += bytes;
  }
  if (current.length > 0) out.push(current);
  return out;
}

const count = (json, tag) => json?.[tag]?.Value?.length ?? 0;

async function send(opts, files) {
  const url = `${opts.url.replace(/\/+$/, '')}/api/dicomweb/studies`;
  let stored = 0;
  let failed = 0;
  for (const batch of batches(files, opts.batchMb * 2 ** 20)) {
    const { body, contentType } = stowBody(batch);
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${opts.token}`,
        'content-type': contentType,
        accept: 'application/dicom+json',
      },
      body,
    });
    const text = await res.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: reported below
    }
    // 200 all stored, 202 some stored or warned, 409 none stored (PS3.18 §10.5.3).
    if (![200, 202, 409].includes(res.status) || !json) {
      console.error(`HTTP ${res.status} from ${url}: ${text.slice(0, 500)}`);
      process.exit(2);
    }
    stored += count(json, '00081199');
    failed += count(json, '00081198');
    for (const item of json['00081198']?.Value ?? []) {
      const uid = item['00081155']?.Value?.[0] ?? '(unreadable file)';
      const reason = item['00000902']?.Value?.[0] ?? `failure reason ${item['00081197']?.Value?.[0]}`;
      console.error(`not stored: ${uid}: ${reason}`);
    }
  }
  console.log(`${stored} stored, ${failed} not stored, ${files.length} files`);
  return failed === 0 ? 0 : 1;
}

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(error.message === USAGE ? USAGE : `${error.message}\n${USAGE}`);
    process.exit(2);
  }
  const files = filesOf(opts.paths);
  if (opts.body) {
    const { body, contentType } = stowBody(files, opts.boundary ?? undefined);
    writeFileSync(opts.body, body);
    // The Content-Type curl must send with it (the boundary is in it).
    console.log(contentType);
    return 0;
  }
  return send(opts, files);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      process.exit(2);
    },
  );
}
