/**
 * A tiny terminal emulator for renderer tests: applies what a program wrote (text, CR, LF,
 * cursor up/column moves, erase to end of screen/line, clear screen) and returns the screen as
 * lines, so a test sees what a person would see — not the history of redraws. Colours and
 * private modes are ignored. Wide (CJK) characters take two cells.
 */
import stringWidth from 'string-width';

export class VirtualTerminal {
  private lines: string[][] = [[]];
  private row = 0;
  private col = 0;

  constructor(private readonly columns = 80) {}

  write(data: string): void {
    // A sticky pattern matches at `i` without copying the rest of the output: a pty test
    // re-draws its whole recording on every check, so this must stay linear.
    const CSI = /\x1b\[([?0-9;]*)([A-Za-z@])/y;
    let i = 0;
    while (i < data.length) {
      const ch = data[i]!;
      if (ch === '\x1b') {
        CSI.lastIndex = i;
        const m = CSI.exec(data);
        if (m) {
          this.csi(m[1]!, m[2]!);
          i += m[0].length;
          continue;
        }
        i += 1;
        continue;
      }
      if (ch === '\r') this.col = 0;
      else if (ch === '\n') {
        this.row += 1;
        this.col = 0;
      } else if (ch >= ' ') {
        const cp = data.codePointAt(i)!;
        const c = String.fromCodePoint(cp);
        this.put(c);
        i += c.length;
        continue;
      }
      i += 1;
    }
  }

  private line(): string[] {
    while (this.lines.length <= this.row) this.lines.push([]);
    return this.lines[this.row]!;
  }

  private put(c: string): void {
    const w = c.length === 1 && c < '\x7f' ? 1 : stringWidth(c);
    if (w === 0) return;
    if (this.col + w > this.columns) {
      this.row += 1;
      this.col = 0;
    }
    const line = this.line();
    while (line.length < this.col) line.push(' ');
    line[this.col] = c;
    if (w === 2) line[this.col + 1] = '';
    this.col += w;
  }

  private csi(params: string, cmd: string): void {
    const n = Number(params.replace('?', '')) || 1;
    switch (cmd) {
      case 'A':
        this.row = Math.max(0, this.row - n);
        break;
      case 'B':
        this.row += n;
        break;
      case 'C':
        this.col += n;
        break;
      case 'D':
        this.col = Math.max(0, this.col - n);
        break;
      case 'G':
        this.col = n - 1;
        break;
      case 'F':
        this.row = Math.max(0, this.row - n);
        this.col = 0;
        break;
      case 'J':
        if (params === '2' || params === '3') {
          this.lines = [[]];
          this.row = 0;
          this.col = 0;
        } else {
          this.line().length = Math.min(this.line().length, this.col);
          this.lines.length = this.row + 1;
        }
        break;
      case 'K':
        if (params === '2') this.line().length = 0;
        else this.line().length = Math.min(this.line().length, this.col);
        break;
      case 'H':
        this.row = 0;
        this.col = 0;
        break;
      default:
        break; // colours (m), private modes (h/l)
    }
  }

  /** The screen (all rows, scrollback included), trailing blanks trimmed. */
  text(): string {
    return this.lines
      .map((l) => l.join('').replace(/\s+$/, ''))
      .join('\n')
      .replace(/\n+$/, '');
  }
}
