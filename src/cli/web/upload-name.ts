/**
 * Whether a name from the page can be a file name in zhi-uploads/ as it is: a plain name, never
 * a path. Refused rather than repaired, so nothing lands anywhere but where the person expects.
 */

/** Names Windows keeps for devices, with any extension (`CON`, `nul.txt`, `COM1.log`). */
const DEVICE = /^(con|prn|aux|nul|clock\$|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
/** Characters no file name may hold on some system zhi runs on (and path separators). */
const FORBIDDEN = /[/\\:*?"<>|\u0000-\u001f\u007f\u0080-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;
/** Bytes of a name (most file systems stop at 255). */
const MAX_NAME_BYTES = 200;

export function safeUploadName(name: string): boolean {
  if (!name || name !== name.normalize('NFC')) return false;
  if (name === '.' || name === '..' || name.startsWith('.')) return false;
  if (FORBIDDEN.test(name)) return false;
  // Windows drops trailing dots and spaces: `a.txt.` would be another file than the one checked.
  if (/[. ]$/.test(name) || /^\s/.test(name)) return false;
  if (DEVICE.test(name) || DEVICE.test(name.split('.')[0] ?? '')) return false;
  return Buffer.byteLength(name) <= MAX_NAME_BYTES;
}

/** `report.xlsx` → `report (2).xlsx`: the n-th name for a file whose name is taken. */
export function numberedName(name: string, n: number): string {
  if (n < 2) return name;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}
