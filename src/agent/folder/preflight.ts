/**
 * What a folder run can know before its first paid call, and so says before it: where each
 * file's outputs go (the input's subfolders mirrored under the output folder, so `a/x.txt` and
 * `b/x.txt` do not compete for one name), and which inputs would still name their outputs alike
 * (`dup.txt` and `dup.md` in one folder). Whether its writes could be allowed at all is the
 * job's to say (FolderJob.writesRefused).
 */
import { basename, dirname, extname, join, relative, sep } from 'node:path';

/** Where one input's outputs go, and the name its outputs take when another input's stem is the same. */
export interface OutputPlace {
  /** The input's folder under the run's folder (`a/b`), or '' at the top. */
  subdir: string;
  /** Set when another input in the same folder has the same stem: the name to use instead. */
  nameAs?: string;
}

/** Inputs that would name their outputs alike: their shared folder and stem, and the inputs. */
export interface NameClash {
  stem: string;
  files: string[];
}

/** `report.final.docx` → `report.final`; `.env` keeps its name. */
function stemOf(name: string): string {
  const ext = extname(name);
  return ext && ext !== name ? name.slice(0, -ext.length) : name;
}

/** `dup.txt` → `dup-txt`: a stem no other input of the folder shares. */
function fullStem(name: string): string {
  return name.replace(/\.([^.]+)$/, '-$1');
}

/**
 * Each input's output place: its subfolder mirrored, and a distinct name where two inputs of one
 * folder share a stem (case-insensitively: Windows and macOS see one name). Pure: decided before
 * any call, and the same on every run, so a resumed run finds the same outputs.
 */
export function planOutputs(
  dir: string,
  files: readonly string[],
): { places: OutputPlace[]; clashes: NameClash[] } {
  const places: OutputPlace[] = files.map((f) => {
    const sub = dirname(relative(dir, f));
    return { subdir: sub === '.' ? '' : sub.split(sep).join('/') };
  });
  const groups = new Map<string, number[]>();
  for (const [i, f] of files.entries()) {
    const key = `${places[i]!.subdir}/${stemOf(basename(f)).toLowerCase()}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  }
  const clashes: NameClash[] = [];
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const first = files[members[0]!]!;
    clashes.push({
      stem: join(places[members[0]!]!.subdir, stemOf(basename(first)))
        .split(sep)
        .join('/'),
      files: members.map((i) => relative(dir, files[i]!).split(sep).join('/')),
    });
    for (const i of members) places[i]!.nameAs = fullStem(basename(files[i]!));
  }
  return { places, clashes };
}

/** Clashes named at the start: the first few, and how many there are. */
export const CLASHES_SHOWN = 3;

export function clashesShown(clashes: readonly NameClash[]): { count: number; shown: NameClash[] } {
  return { count: clashes.length, shown: clashes.slice(0, CLASHES_SHOWN) };
}
