import { describe, expect, it } from 'vitest';
import { buildFile } from '../../test/fake-xhr';
import { filesOfEntries } from './pick-from-drop';

/** FileSystemEntry trees as browsers give them for a drop; directories answer in chunks of `chunk`. */
function fileEntry(file: File): FileSystemEntry {
  return {
    name: file.name,
    isFile: true,
    isDirectory: false,
    file: (ok: (f: File) => void) => ok(file),
  } as unknown as FileSystemEntry;
}

function dirEntry(name: string, children: FileSystemEntry[], chunk = 2): FileSystemEntry {
  return {
    name,
    isFile: false,
    isDirectory: true,
    createReader: () => {
      let at = 0;
      return {
        readEntries: (ok: (entries: FileSystemEntry[]) => void) => {
          ok(children.slice(at, at + chunk));
          at += chunk;
        },
      };
    },
  } as unknown as FileSystemEntry;
}

describe('filesOfEntries', () => {
  it('reads a dropped folder to the end, nested folders included, without hidden files', async () => {
    const [a, b, c, d, e] = ['a.dcm', 'b.dcm', 'c.dcm', 'd.dcm', 'e.zip'].map((n) => buildFile(n));
    const tree = [
      dirEntry('STUDY', [
        fileEntry(a!),
        fileEntry(buildFile('.DS_Store')),
        fileEntry(b!),
        dirEntry('SERIES2', [fileEntry(c!), fileEntry(d!)]),
        dirEntry('.Trashes', [fileEntry(buildFile('x.dcm'))]),
      ]),
      fileEntry(e!),
    ];
    const names = (await filesOfEntries(tree)).map((f) => f.name);
    expect(names).toEqual(['a.dcm', 'b.dcm', 'c.dcm', 'd.dcm', 'e.zip']);
  });
});
