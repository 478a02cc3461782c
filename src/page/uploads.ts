// Files the person drops, picks or pastes go to POST /api/uploads one by one (the server names
// them safely inside the connected folder's zhi-uploads/ and caps their size).
import { api } from './api.js';
import type { Upload } from './types.js';

/** Upload files one by one (into `zhi-uploads/<folder>/` when a folder is named). */
export async function uploadAll(
  files: File[],
  onEach?: (u: Upload) => void,
  folder?: string,
): Promise<Upload[]> {
  const done: Upload[] = [];
  for (const file of files) {
    const up = await api.upload<Upload>(file, file.name || pastedName(file), folder);
    done.push(up);
    onEach?.(up);
  }
  return done;
}

/** A pasted image has no name: one from the time, with its type's extension. */
function pastedName(file: File): string {
  const ext = file.type.split('/')[1]?.replace('jpeg', 'jpg') ?? 'png';
  return `pasted-${localStamp()}.${ext}`;
}

/** Every file of a drop, folders walked (their files side by side: an upload's name has no folder). */
export async function droppedFiles(data: DataTransfer): Promise<File[]> {
  const entries = [...data.items]
    .map((i) => (i.kind === 'file' ? i.webkitGetAsEntry?.() : null))
    .filter((e): e is FileSystemEntry => !!e);
  if (entries.length === 0) return [...data.files];
  const out: File[] = [];
  for (const entry of entries) await walk(entry, out);
  return out;
}

async function walk(entry: FileSystemEntry, out: File[]): Promise<void> {
  if (entry.isFile) {
    out.push(await new Promise<File>((ok, fail) => (entry as FileSystemFileEntry).file(ok, fail)));
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((ok, fail) => reader.readEntries(ok, fail));
    if (batch.length === 0) return;
    // Hidden files (.DS_Store, .git) are not the person's documents.
    for (const child of batch) if (!child.name.startsWith('.')) await walk(child, out);
  }
}

/** A fresh folder name for the files of one skill run: the skill and the time. */
export function runFolderName(skill: string): string {
  return `${skill.replace(/[^\w-]/g, '_')}-${localStamp()}`;
}

/** The time on the person's clock as 20260312-091500 (a name they recognise in their folder). */
function localStamp(): string {
  const d = new Date();
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${two(d.getMonth() + 1)}${two(d.getDate())}-${two(d.getHours())}${two(d.getMinutes())}${two(d.getSeconds())}`;
}
