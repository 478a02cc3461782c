/**
 * Find an installed program zhi can use when it is present (LibreOffice, ffmpeg): an environment
 * variable names it (or `off` to do without), else PATH, else the places installers put it.
 * Looked up once per PATH and setting.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface ProgramSpec {
  /** The environment variable that names the program, or `off`. */
  env: string;
  /** Program names to look for on PATH, per platform (Windows names end in .exe). */
  names: string[];
  /** Where installers put it when it is not on PATH, per platform. */
  places?: Partial<Record<NodeJS.Platform, string[]>>;
}

const found = new Map<string, string | null>();

export function findProgram(spec: ProgramSpec): string | undefined {
  const pick = process.env[spec.env] ?? '';
  if (pick === 'off') return undefined;
  const key = `${spec.env}\0${pick}\0${process.env.PATH ?? ''}`;
  const known = found.get(key);
  if (known !== undefined) return known ?? undefined;
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  const candidates = [
    ...(pick ? [pick] : []),
    ...dirs.flatMap((d) => spec.names.map((n) => join(d, n))),
    ...(spec.places?.[process.platform] ?? []),
  ];
  const path = candidates.find((c) => {
    try {
      accessSync(c, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  found.set(key, path ?? null);
  return path;
}
