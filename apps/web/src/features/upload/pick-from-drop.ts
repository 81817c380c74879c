/**
 * The files of a drop, folders included: Chrome, Edge, Firefox and Safari expose dropped folders as
 * FileSystemEntry trees. Entries must be taken during the drop event itself; reading them may follow.
 */
export function entriesOfDrop(data: DataTransfer): FileSystemEntry[] | null {
  const items = Array.from(data.items ?? []);
  if (items.length === 0 || typeof items[0]?.webkitGetAsEntry !== 'function') return null;
  return items.map((item) => item.webkitGetAsEntry()).filter((e): e is FileSystemEntry => e !== null);
}

export async function filesOfEntries(entries: readonly FileSystemEntry[]): Promise<File[]> {
  const files: File[] = [];
  for (const entry of entries) await collect(entry, files);
  return files;
}

async function collect(entry: FileSystemEntry, into: File[]): Promise<void> {
  if (entry.isFile) {
    into.push(
      await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject)),
    );
    return;
  }
  if (!entry.isDirectory) return;
  // Hidden folders and files (.DS_Store, ._x, .Trashes) are never images.
  if (entry.name.startsWith('.')) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in chunks (100 in Chrome) until it answers an empty list.
  for (;;) {
    const chunk = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (chunk.length === 0) return;
    for (const child of chunk) {
      if (child.isFile && child.name.startsWith('.')) continue;
      await collect(child, into);
    }
  }
}
