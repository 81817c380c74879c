import fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsBlobStore, assertBlobKey } from './blob-store.js';

describe('FsBlobStore', () => {
  let root: string;
  let store: FsBlobStore;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(tmpdir(), 'rf-blobs-'));
    store = await new FsBlobStore(root).init();
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('stores bytes and streams, reads them whole and by range', async () => {
    const a = await store.put('dicom/1/a.dcm', new Uint8Array([1, 2, 3, 4, 5]));
    expect(a.sizeBytes).toBe(5);
    expect(a.sha256).toMatch(/^[0-9a-f]{64}$/);
    await store.put('dicom/1/b.dcm', Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect((await store.read('dicom/1/b.dcm')).toString()).toBe('hello world');
    expect((await store.read('dicom/1/b.dcm', { start: 6, end: 11 })).toString()).toBe('world');
    const chunks: Buffer[] = [];
    for await (const c of store.get('dicom/1/a.dcm', { start: 1, end: 3 })) chunks.push(c as Buffer);
    expect([...Buffer.concat(chunks)]).toEqual([2, 3]);
    expect(await store.size('dicom/1/a.dcm')).toBe(5);
    expect(await store.size('dicom/1/missing.dcm')).toBeNull();
  });

  it('leaves the old blob intact when a write fails midway, and no temp file behind', async () => {
    await store.put('k/x', new Uint8Array([9, 9]));
    const failing = new Readable({
      read() {
        this.push(Buffer.from([1]));
        this.destroy(new Error('connection lost'));
      },
    });
    await expect(store.put('k/x', failing)).rejects.toThrow('connection lost');
    expect([...(await store.read('k/x'))]).toEqual([9, 9]);
    expect(await fs.readdir(store.tempDir())).toEqual([]);
  });

  it('moves a finished file in', async () => {
    const file = path.join(store.tempDir(), 'incoming');
    await fs.writeFile(file, 'abc');
    expect(await store.putFile('in/y', file)).toEqual({ sizeBytes: 3 });
    expect((await store.read('in/y')).toString()).toBe('abc');
    await expect(fs.stat(file)).rejects.toThrow();
  });

  it('moving a file over a stored blob replaces it; many moved at once into one directory all arrive', async () => {
    const incoming = async (name: string, body: string) => {
      const file = path.join(store.tempDir(), name);
      await fs.writeFile(file, body);
      return file;
    };
    await store.putFile('s/1/a.dcm', await incoming('first', 'old'));
    expect(await store.putFile('s/1/a.dcm', await incoming('again', 'newer'))).toEqual({ sizeBytes: 5 });
    expect((await store.read('s/1/a.dcm')).toString()).toBe('newer');
    const files = await Promise.all(Array.from({ length: 20 }, (_, i) => incoming(`p${i}`, `body ${i}`)));
    await Promise.all(files.map((file, i) => store.putFile(`s/2/${i}.dcm`, file)));
    for (let i = 0; i < 20; i++) expect((await store.read(`s/2/${i}.dcm`)).toString()).toBe(`body ${i}`);
    expect(await fs.readdir(store.tempDir())).toEqual([]);
  });

  it('stores bytes from memory: a new key, a re-send replacing it, many at once into one directory', async () => {
    expect(await store.putBytes('m/1/a.dcm', Buffer.from('first'))).toEqual({ sizeBytes: 5 });
    expect((await store.read('m/1/a.dcm')).toString()).toBe('first');
    expect(await store.putBytes('m/1/a.dcm', Buffer.from('second!'))).toEqual({ sizeBytes: 7 });
    expect((await store.read('m/1/a.dcm')).toString()).toBe('second!');
    const big = Buffer.alloc(3 * 2 ** 20, 7);
    await Promise.all([
      store.putBytes('m/2/big.dcm', big),
      ...Array.from({ length: 20 }, (_, i) => store.putBytes(`m/2/${i}.dcm`, Buffer.from(`body ${i}`))),
    ]);
    expect((await store.read('m/2/big.dcm')).equals(big)).toBe(true);
    for (let i = 0; i < 20; i++) expect((await store.read(`m/2/${i}.dcm`)).toString()).toBe(`body ${i}`);
    // What is left in the temp directory is at most the empty files kept for the next blobs, and
    // closing the store removes them.
    const left = await fs.readdir(store.tempDir());
    expect(left.length).toBeLessThanOrEqual(2);
    for (const name of left) expect((await fs.stat(path.join(store.tempDir(), name))).size).toBe(0);
    await store.close();
    expect(await fs.readdir(store.tempDir())).toEqual([]);
    // A closed store still stores (a blob written during shutdown), without keeping spares.
    expect(await store.putBytes('m/3/late.dcm', Buffer.from('late'))).toEqual({ sizeBytes: 4 });
    expect((await store.read('m/3/late.dcm')).toString()).toBe('late');
    expect(await fs.readdir(store.tempDir())).toEqual([]);
  });

  it('makes a directory again when it was removed after a blob was stored in it', async () => {
    await store.putFile(
      'gone/1/a.dcm',
      await (async () => {
        const file = path.join(store.tempDir(), 'a');
        await fs.writeFile(file, 'a');
        return file;
      })(),
    );
    await fs.rm(path.join(root, 'gone'), { recursive: true });
    const file = path.join(store.tempDir(), 'b');
    await fs.writeFile(file, 'b');
    await store.putFile('gone/1/b.dcm', file);
    expect((await store.read('gone/1/b.dcm')).toString()).toBe('b');
  });

  it('refuses keys that could leave the root', () => {
    for (const bad of ['../x', 'a/../../b', '/abs', 'a//b', 'a/b c', '']) {
      expect(() => assertBlobKey(bad), bad).toThrow();
    }
    expect(() => assertBlobKey('dicom/2.25.1/x.dcm')).not.toThrow();
  });
});
