/**
 * LibreOffice as a converter for the formats zhi has no native reader for (old binary Office,
 * WPS, RTF): `soffice --headless --convert-to` into a private temporary folder, with its own
 * throw-away profile (so a LibreOffice the person has open is not disturbed and two
 * conversions never share a lock), a time limit, and everything removed afterwards.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findProgram } from '../../find-program.js';
import { SOFFICE_PREFIX, stopProcessesIn, sweepSofficeLeftovers } from './soffice-leftovers.js';

const TIMEOUT_MS = 120_000;

/** Where LibreOffice usually lives when it is not on PATH. */
const KNOWN_PLACES: Partial<Record<NodeJS.Platform, string[]>> = {
  win32: [
    'C:\\Program Files\\LibreOffice\\program\\soffice.exe',
    'C:\\Program Files (x86)\\LibreOffice\\program\\soffice.exe',
  ],
  darwin: ['/Applications/LibreOffice.app/Contents/MacOS/soffice'],
};

/**
 * The LibreOffice program, or undefined when it is not installed (looked up once per PATH).
 * `ZHI_SOFFICE` names the program, or `off` to read without it.
 */
export function findSoffice(): string | undefined {
  return findProgram({
    env: 'ZHI_SOFFICE',
    names: process.platform === 'win32' ? ['soffice.exe', 'soffice.com'] : ['soffice', 'libreoffice'],
    places: KNOWN_PLACES,
  });
}

export class ConversionError extends Error {}

/**
 * Convert `data` (a file of extension `fromExt`, e.g. ".doc") to `toExt` ("docx", "xlsx", "pptx",
 * "txt"…) with LibreOffice and return the converted bytes.
 */
export async function convertWithSoffice(
  data: Buffer | string,
  fromExt: string,
  toExt: string,
  signal?: AbortSignal,
): Promise<Buffer> {
  const soffice = findSoffice();
  if (!soffice) throw new ConversionError('LibreOffice is not installed');
  sweepSofficeLeftovers();
  const dir = await mkdtemp(join(tmpdir(), SOFFICE_PREFIX));
  let finished = false;
  try {
    const input = join(dir, `input${fromExt}`);
    if (typeof data === 'string') await copyFile(data, input);
    else await (await import('node:fs/promises')).writeFile(input, data);
    const outDir = join(dir, 'out');
    const profile = pathToFileURL(join(dir, 'profile')).href;
    await new Promise<void>((resolve, reject) => {
      execFile(
        soffice,
        [
          `-env:UserInstallation=${profile}`,
          '--headless',
          '--norestore',
          '--nologo',
          '--convert-to',
          toExt,
          '--outdir',
          outDir,
          input,
        ],
        {
          timeout: TIMEOUT_MS,
          killSignal: 'SIGKILL',
          windowsHide: true,
          ...(signal ? { signal } : {}),
          env: { ...process.env, HOME: dir },
        },
        (err, _stdout, stderr) =>
          err
            ? reject(
                new ConversionError(
                  err.killed ? 'LibreOffice took too long' : stderr.trim().split('\n').pop() || err.message,
                ),
              )
            : resolve(),
      );
    });
    const files = await readdir(outDir).catch(() => [] as string[]);
    const out = files.find((f) => f.toLowerCase().endsWith(`.${toExt.split(':')[0]!.toLowerCase()}`));
    if (!out)
      throw new ConversionError(
        'LibreOffice could not open the file (it may be damaged or password-protected)',
      );
    const bytes = await readFile(join(outDir, out));
    finished = true;
    return bytes;
  } finally {
    if (!finished) stopProcessesIn(dir);
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}
