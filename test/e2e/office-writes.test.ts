/**
 * Issue 45 end to end: the model writes a workbook with Chinese amounts ("1.2万") and a SUM, the
 * built zhi stores the numbers they say and the formula's value, and zhi's own read-back shows
 * them; a deck with a 28-row table is told as the slides it really has. The tool results the
 * model got back are checked as well as the files on disk.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';

const e = useE2E();
const { fake } = e;

function toolResults(requestIndex: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of fake.chatBodies()[requestIndex].messages)
    if (m.role === 'tool') out[m.tool_call_id] = m.content;
  return out;
}

describe('a workbook with 1.2万 and a SUM, written and read back', () => {
  it('stores 12,000 (not 1.2), caches SUM = 25,000, and names the cell kept as text', async () => {
    fake.script(
      {
        kind: 'tools',
        calls: [
          {
            id: 'call_write',
            name: 'file_write',
            arguments: {
              path: '销售.xlsx',
              content: {
                sheets: [
                  {
                    name: '门店',
                    headers: ['门店', '销售额'],
                    rows: [
                      ['东城', '1.2万'],
                      ['西城', '13,000'],
                      ['北城', '约3万'],
                      ['合计', '=SUM(B2:B4)'],
                    ],
                  },
                  { name: '汇总', headers: ['项目', '值'], rows: [['平均', '=AVERAGE(门店!B2:B3)']] },
                ],
              },
            },
          },
        ],
      },
      {
        kind: 'tools',
        calls: [{ id: 'call_read', name: 'file_read', arguments: { path: 'zhi-output/销售.xlsx' } }],
      },
      { kind: 'text', text: '合计 25,000。' },
    );
    const r = await e.zhi(['-c', '把门店销售额做成 Excel 并合计', '--auto', '--language', 'zh']);
    expect(r.stderr).not.toMatch(/Error|Traceback/);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('合计 25,000。\n');

    const written = toolResults(1).call_write!;
    expect(written).toMatch(
      /^Wrote zhi-output\/销售\.xlsx \([\d.]+ KB; Excel: sheet "门店" 4 rows, sheet "汇总" 1 row\)\./,
    );
    expect(written).toContain(`'门店'!B4 "约3万" (an approximate amount or a range)`);
    expect(written).not.toContain('not computed');

    const read = toolResults(2).call_read!;
    expect(read).toContain('| 东城 | 12,000 |');
    expect(read).toContain('| 北城 | 约3万 |');
    expect(read).toContain('| 合计 | 25,000 |');
    expect(read).toContain('| 平均 | 12,500.00 |');
    expect(read).not.toContain('not calculated');

    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(readFileSync(join(e.cwd, 'zhi-output', '销售.xlsx')) as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('门店')!;
    expect(ws.getCell('B2').value).toBe(12_000);
    expect(ws.getCell('B3').value).toBe(13_000);
    expect(ws.getCell('B4').value).toBe('约3万');
    expect(ws.getCell('B5').value).toEqual({ formula: 'SUM(B2:B4)', result: 25_000 });
    expect(ws.getCell('B5').numFmt).toBe('#,##0');
    expect(wb.getWorksheet('汇总')!.getCell('B2').value).toEqual({
      formula: 'AVERAGE(门店!B2:B3)',
      result: 12_500,
    });
  });
});

describe('a deck with a 28-row table', () => {
  it('is split with its title repeated, and the model is told the real slide count', async () => {
    const rows = Array.from({ length: 28 }, (_, i) => [`门店${i + 1}`, `${1000 + i}`]);
    fake.script(
      {
        kind: 'tools',
        calls: [
          {
            id: 'call_deck',
            name: 'file_write',
            arguments: {
              path: 'deck.pptx',
              content: { slides: [{ title: '门店数据', table: { headers: ['门店', '销售额'], rows } }] },
            },
          },
        ],
      },
      {
        kind: 'tools',
        calls: [{ id: 'call_read', name: 'file_read', arguments: { path: 'zhi-output/deck.pptx' } }],
      },
      { kind: 'text', text: '做好了，共 3 页。' },
    );
    const r = await e.zhi(['-c', '把门店数据做成幻灯片', '--auto', '--language', 'zh']);
    expect(r.code).toBe(0);
    expect(toolResults(1).call_deck).toContain(
      '3 slides (1 in the content; 2 more slide(s) titled "…（续）" carry the lists and tables that did not fit one slide)',
    );
    const read = toolResults(2).call_read!;
    expect(read).toContain('## Slide 1: 门店数据');
    expect(read).toContain('## Slide 3: 门店数据（续）');
    expect(read).not.toContain('## Slide 4');
  });
});
