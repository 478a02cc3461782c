/**
 * How file_write puts bytes on disk (design §3): always through a temporary file created in the
 * folder that was checked, then moved into place in one step — so a reader never sees half a
 * file, a failed write leaves nothing behind, and nothing existing is replaced unless a person
 * said yes. The folder's identity is taken when it is checked and compared again just before the
 * move: a folder swapped for a link meanwhile stops the write.
 */
import { randomBytes } from 'node:crypto';
import { type FileHandle, link, lstat, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The file-system calls a write needs; a seam so tests can make a write fail (disk full, file in use). */
export interface WriteIo {
  open(path: string, flags: string, mode?: number): Promise<FileHandle>;
  link?(existing: string, name: string): Promise<void>;
  rename?(from: string, to: string): Promise<void>;
}
export const nodeIo: WriteIo = { open, link, rename };

/** What goes into the file: its bytes, or a function that writes them into the open file (streamed). */
export type FileData = Buffer | ((handle: FileHandle) => Promise<void>);

/** A folder as it was when checked (device and inode), to notice it being swapped. */
export interface FolderId {
  path: string;
  dev: number;
  ino: number;
}

export async function folderId(path: string): Promise<FolderId> {
  const st = await lstat(path);
  if (!st.isDirectory()) throw Object.assign(new Error(`${path} is not a folder`), { code: 'ENOTDIR' });
  return { path, dev: st.dev, ino: st.ino };
}

/** Thrown when the checked folder is no longer the same folder. */
export class FolderChanged extends Error {
  constructor(readonly folder: string) {
    super(`${folder} changed while the file was being written`);
    this.name = 'FolderChanged';
  }
}

async function stillSame(id: FolderId): Promise<void> {
  const now = await lstat(id.path).catch(() => undefined);
  if (!now?.isDirectory() || now.dev !== id.dev || now.ino !== id.ino) throw new FolderChanged(id.path);
}

/** Write `data` to a new temporary file beside `abs` (exclusive, so nothing is ever followed). */
async function writeTemp(abs: string, data: FileData, io: WriteIo): Promise<string> {
  const tmp = join(dirname(abs), `.${basename(abs)}.${randomBytes(4).toString('hex')}.zhi-tmp`);
  await fill(await io.open(tmp, 'wx', 0o644), tmp, data);
  return tmp;
}

/** Write, sync and close a file just created; on failure the partial file is removed. */
async function fill(handle: FileHandle, path: string, data: FileData): Promise<void> {
  try {
    if (typeof data === 'function') await data(handle);
    else await handle.writeFile(data);
    await handle.sync();
    await handle.close();
  } catch (err) {
    await handle.close().catch(() => {});
    await rm(path, { force: true }).catch(() => {});
    throw err;
  }
}

/** File systems without hard links (FAT USB sticks, some network shares). */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK']);

/**
 * Create `abs` with `data`, never replacing anything: the bytes go to a temporary file in the
 * checked folder, which is then linked into place (a link fails if the name exists). Resolves
 * false when the name exists. Where links are not supported, the file is created exclusively.
 */
export async function createNew(
  abs: string,
  data: FileData,
  folder: FolderId,
  io: WriteIo = nodeIo,
): Promise<boolean> {
  const tmp = await writeTemp(abs, data, io);
  try {
    await stillSame(folder);
    try {
      await (io.link ?? link)(tmp, abs);
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (code === 'EEXIST') return false;
      if (!NO_LINKS.has(code)) throw err;
    }
    return await createExclusive(abs, data, io);
  } finally {
    await rm(tmp, { force: true }).catch(() => {});
  }
}

/** Create `abs` exclusively and write it; a failed write removes the partial file. False when it exists. */
async function createExclusive(abs: string, data: FileData, io: WriteIo): Promise<boolean> {
  let handle: FileHandle;
  try {
    handle = await io.open(abs, 'wx', 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  await fill(handle, abs, data);
  return true;
}

/** Replace `abs` (after a person said yes): a temporary file in the checked folder, then rename over. */
export async function replaceExisting(
  abs: string,
  data: FileData,
  folder: FolderId,
  io: WriteIo = nodeIo,
): Promise<void> {
  const tmp = await writeTemp(abs, data, io);
  try {
    await stillSame(folder);
    await (io.rename ?? rename)(tmp, abs);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
}
