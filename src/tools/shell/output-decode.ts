/**
 * Command output as text. Windows programs write in the console's code page (936, GBK, on a
 * Chinese Windows) while others (node, git, python with UTF-8 mode) write UTF-8 — often in one
 * run (`type notes.txt & echo 你好`). So the bytes are decoded line by line: UTF-8 when the line
 * is valid UTF-8, else the console code page. Windows line ends (`\r\n`) become `\n` before
 * anything is shown, so no line carries a stray `\r`; a lone `\r` (a progress bar) stays.
 */
import { spawn } from 'node:child_process';
import { TextDecoder } from 'node:util';

/** Code pages of Windows consoles and the WHATWG name of their encoding (TextDecoder). */
const ENCODINGS: Record<number, string> = {
  936: 'gb18030',
  54936: 'gb18030',
  950: 'big5',
  932: 'shift_jis',
  949: 'euc-kr',
  65001: 'utf-8',
  866: 'ibm866',
  // The Western OEM pages have no decoder here; their letters are nearest in windows-1252/1250.
  437: 'windows-1252',
  850: 'windows-1252',
  858: 'windows-1252',
  852: 'windows-1250',
  874: 'windows-874',
  1250: 'windows-1250',
  1251: 'windows-1251',
  1252: 'windows-1252',
  1253: 'windows-1253',
  1254: 'windows-1254',
  1255: 'windows-1255',
  1256: 'windows-1256',
  1257: 'windows-1257',
  1258: 'windows-1258',
};

/** The encoding of a code page; GB18030 (a superset of GBK) when it is not known. */
export function encodingOf(codePage: number | undefined): string {
  return (codePage !== undefined && ENCODINGS[codePage]) || 'gb18030';
}

/** `Active code page: 936` / `活动代码页: 936`: the number at the end of chcp's answer. */
export function parseChcp(text: string): number | undefined {
  const m = /(\d{3,5})\D*$/.exec(text.trim());
  return m ? Number(m[1]) : undefined;
}

let cached: Promise<number | undefined> | undefined;

/** The code page commands write in, asked once of cmd.exe (`chcp`) as the commands see it. */
export function consoleCodePage(): Promise<number | undefined> {
  cached ??= new Promise((resolve) => {
    let out = '';
    try {
      const p = spawn('cmd.exe', ['/d', '/c', 'chcp'], {
        windowsHide: true,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      p.stdout?.on('data', (d: Buffer) => {
        out += d.toString('latin1');
      });
      p.on('error', () => resolve(undefined));
      p.on('close', () => resolve(parseChcp(out)));
    } catch {
      resolve(undefined);
    }
  });
  return cached;
}

/**
 * Decode output line by line (UTF-8, else `fallback`); on Windows `\r\n` becomes `\n`. The byte
 * cap may have cut the last character in two: up to 3 bytes at the very end may be dropped.
 */
export function decodeOutput(bytes: Buffer, fallback: string, windows: boolean): string {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const other = new TextDecoder(fallback);
  let text = '';
  for (let start = 0; start < bytes.length; ) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl < 0 ? bytes.length : nl + 1;
    text += decodeLine(bytes.subarray(start, end), utf8, other, end === bytes.length);
    start = end;
  }
  return windows ? text.replace(/\r+\n/g, '\n') : text;
}

function decodeLine(line: Buffer, utf8: TextDecoder, other: TextDecoder, last: boolean): string {
  for (let cut = 0; cut <= (last ? Math.min(3, line.length) : 0); cut++) {
    try {
      return utf8.decode(line.subarray(0, line.length - cut));
    } catch {
      // try a shorter tail, then the code page
    }
  }
  return other.decode(line);
}
