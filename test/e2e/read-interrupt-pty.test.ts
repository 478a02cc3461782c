/**
 * Issue 45 point 6: Ctrl+C stops a read under way. A big Word file (its body is parsed in
 * slices, with a turn of the event loop between them) read by file_read in the REPL: Ctrl+C
 * returns to the prompt long before the read would have ended, and nothing more is sent. The
 * read alone is timed here first, in this process, as the measure of "long".
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDocument } from '../../src/tools/files/readers/index.js';
import { buildDocx, p } from '../helpers/docx-build.js';
import { useE2E } from '../helpers/e2e.js';
import { KEY, promptFor } from '../helpers/pty.js';
import { stretched } from '../helpers/slowdown.js';

const e2e = useE2E();

/** A Word file whose body takes seconds to read: many paragraphs of words that do not repeat. */
async function bigDocx(path: string): Promise<void> {
  let seed = 7;
  const word = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed % 1_000_000).toString(36);
  };
  const paras: string[] = [];
  for (let i = 0; i < 400_000; i++) paras.push(p(`${word()} ${word()} ${word()} ${word()} ${word()}`));
  writeFileSync(path, await buildDocx({ body: paras.join('') }));
}

describe('Ctrl+C during a slow read', () => {
  it(
    'returns to the prompt well before the read would end, and sends nothing more',
    async () => {
      const file = join(e2e.cwd, 'big.docx');
      await bigDocx(file);
      const start = performance.now();
      await readDocument(file);
      const fullMs = performance.now() - start;

      e2e.fake.script(
        { kind: 'tools', calls: [{ id: 'r1', name: 'file_read', arguments: { path: 'big.docx' } }] },
        { kind: 'text', text: '读完了。' },
      );
      const s = e2e.pty({ cols: 100, rows: 40 });
      const prompt = promptFor('en');
      await s.waitFor(prompt, 20_000);
      s.write('read the report');
      s.write(KEY.enter);

      // The read has begun when its line (with the spinner, drawn while it runs) is on the screen.
      await s.waitFor('Read big.docx', 20_000);
      // Into the parse (the part is inflated first, and a stream stops at once anyway): a third of
      // the way through the read as timed here, or a second into it by zhi's own clock, whichever
      // comes first (under load this process and zhi are slowed differently, and the read could
      // end before a third of this process's time). Not a budget: it only places the key press.
      const until = performance.now() + fullMs / 3;
      while (performance.now() < until && !/Read big\.docx … [1-9]\d*\.\ds/.test(s.text())) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const mark = s.mark();
      const pressed = performance.now();
      s.write(KEY.ctrlC);
      await s.waitFor('Interrupted.', 60_000, mark);
      await s.waitFor(prompt, 60_000, mark);
      const stopMs = performance.now() - pressed;
      expect(stopMs, `stopped after ${stopMs} ms; the whole read takes ${fullMs} ms`).toBeLessThan(
        fullMs / 2,
      );
      expect(e2e.fake.chatBodies()).toHaveLength(1);
    },
    stretched(180_000),
  );
});
