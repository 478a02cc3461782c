/**
 * Decompression bounded end to end: a PDF whose content stream inflates to far more than any
 * page needs is refused before pdf.js inflates it, and zhi answers (no hang, no memory blow-up).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';

const e2e = useE2E();

/** A one-page PDF whose page content is `content`, flate-compressed, with a valid xref table. */
function pdfWithContent(content: Buffer): Buffer {
  const body = deflateSync(content, { level: 9 });
  const objs = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>'),
    Buffer.concat([
      Buffer.from(`<< /Length ${body.length} /Filter /FlateDecode >>\nstream\n`),
      body,
      Buffer.from('\nendstream'),
    ]),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  const offsets: number[] = [];
  let at = parts[0]!.length;
  objs.forEach((o, i) => {
    const piece = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), o, Buffer.from('\nendobj\n')]);
    offsets.push(at);
    parts.push(piece);
    at += piece.length;
  });
  const xref = ['xref', `0 ${objs.length + 1}`, '0000000000 65535 f ']
    .concat(offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `))
    .join('\n');
  parts.push(
    Buffer.from(`${xref}\ntrailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`),
  );
  return Buffer.concat(parts);
}

describe('a PDF flate bomb', () => {
  it('is refused with the reason, and an ordinary PDF made the same way reads', async () => {
    writeFileSync(join(e2e.cwd, 'bomb.pdf'), pdfWithContent(Buffer.alloc(100 * 1024 * 1024, 0x20)));
    writeFileSync(
      join(e2e.cwd, 'fine.pdf'),
      pdfWithContent(Buffer.from('BT /F1 12 Tf 72 700 Td (Hello bounds) Tj ET')),
    );
    e2e.fake.script(
      {
        kind: 'tools',
        calls: [
          { id: 'b', name: 'file_read', arguments: { path: 'bomb.pdf' } },
          { id: 'f', name: 'file_read', arguments: { path: 'fine.pdf' } },
        ],
      },
      { kind: 'text', text: 'done' },
    );
    const r = await e2e.zhi(['-c', 'read both']);
    expect(r.code).toBe(0);
    const results: Record<string, string> = {};
    for (const m of e2e.fake.chatBodies()[1].messages)
      if (m.role === 'tool') results[m.tool_call_id] = m.content;
    expect(results.b).toContain('expands past 64 MB');
    expect(results.b).toContain('decompression bomb');
    expect(results.f).not.toContain('expands past');
  });
});
