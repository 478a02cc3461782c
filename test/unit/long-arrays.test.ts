/**
 * `Math.max(...xs)` and `out.push(...xs)` throw "Maximum call stack size exceeded" past roughly
 * 100,000 items. Nothing in src/ may spread an array into those calls, and the tables that are
 * sized from data hold 200,000 rows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../src/agent/sessions/store.js';
import { makeStyle } from '../../src/cli/render/style.js';
import { renderTableData } from '../../src/cli/render/table.js';
import { makeTheme } from '../../src/cli/render/theme.js';
import { columns } from '../../src/cli/render/width.js';
import { sessionTable } from '../../src/cli/sessions/list.js';
import { skillTable } from '../../src/cli/skills/manage.js';
import type { SkillCatalog } from '../../src/skills/discovery.js';
import type { Skill } from '../../src/skills/schema.js';
import { insertAll, maxBy, maxOf, pushAll, replaceFrom } from '../../src/support/arrays.js';

const N = 200_000;
const many = <T>(make: (i: number) => T): T[] => Array.from({ length: N }, (_, i) => make(i));

describe('array helpers', () => {
  it('take 200,000 items where a spread throws', () => {
    const xs = many((i) => i % 1000);
    expect(() => Math.max(...many((i) => i), ...many((i) => i))).toThrow(RangeError);
    expect(maxOf(xs)).toBe(999);
    expect(maxOf([], 3)).toBe(3);
    expect(maxOf([])).toBe(Number.NEGATIVE_INFINITY);
    expect(maxBy(xs, (x) => x - 1000, -5000)).toBe(-1);
    expect(pushAll([1], xs).length).toBe(N + 1);
    expect(insertAll([1, 2], 1, xs).slice(0, 3)).toEqual([1, 0, 1]);
    const target = [9, 8, 7];
    expect(replaceFrom(target, 1, xs).length).toBe(N + 1);
    expect(target[0]).toBe(9);
    expect(replaceFrom(target, 1, target)).toEqual(target); // the same array: kept, not lost
  });
});

describe('tables sized from data', () => {
  it('lay out 200,000 rows without overflowing the call stack', () => {
    const rows = many((i) => [`row ${i}`, String(i * 3), i % 7 === 0 ? '中文' : 'x']);
    const lines = columns(rows, new Set([1]));
    expect(lines.length).toBe(N);
    expect(lines[N - 1]).toMatch(/^row 199999 +599997 {2}x$/);
  });

  it('render a 200,000-row Markdown table', () => {
    const cell = (text: string) => [{ text }];
    const data = {
      header: [cell('名称'), cell('金额')],
      aligns: [null, 'right' as const],
      rows: many((i) => [cell(`item ${i}`), cell(String(i))]),
    };
    const grid = renderTableData(data, { width: 80, theme: makeTheme(false) });
    expect(grid.length).toBeGreaterThanOrEqual(N + 2);
  });

  it('list 200,000 sessions', () => {
    const sessions = many(
      (i): SessionSummary => ({
        id: `20260101-100000-${i}`,
        file: '',
        kind: 'repl',
        cwd: '/w',
        created: '2026-01-01T00:00:00.000Z',
        updated: '2026-01-01T00:00:00.000Z',
        title: i % 100 === 0 ? `会话 ${i}` : `session ${i}`,
        model: 'glm-5',
        turns: 1,
        cost: 0,
        currency: 'CNY',
        covered: false,
        tokens: 0,
        compactions: 0,
      }),
    );
    const style = makeStyle(false);
    expect(sessionTable(sessions, { style, width: 100, cwd: '/w' }).length).toBeGreaterThanOrEqual(N);
  });

  it('list 200,000 skills', () => {
    const style = makeStyle(false);
    const skills = new Map<string, Skill>();
    for (let i = 0; i < N; i++) {
      skills.set(`s${i}`, { name: `s${i}`, description: 'd', source: 'user', format: 'yaml' } as Skill);
    }
    const catalog = {
      skills,
      builtins: new Map(),
      shadows: new Map(),
      broken: [],
      warnings: new Map(),
    } as unknown as SkillCatalog;
    const table = skillTable(catalog, { style, width: 100, defaultModel: 'glm-4-flash' });
    expect(table.length).toBeGreaterThanOrEqual(N);
  });
});

/** Every call in src/ that spreads an argument into Math.max/min, push, unshift or splice. */
function spreadCalls(dir: string): string[] {
  const found: string[] = [];
  const risky = /^(Math\.(max|min)|.*\.(push|unshift|splice))$/s;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = join(entry.parentPath, entry.name);
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (n: ts.Node): void => {
      if (
        ts.isCallExpression(n) &&
        n.arguments.some(ts.isSpreadElement) &&
        risky.test(n.expression.getText())
      ) {
        found.push(`${file}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return found;
}

describe('src/', () => {
  it('spreads no array into Math.max/min, push, unshift or splice (use support/arrays.ts)', () => {
    expect(spreadCalls(join(__dirname, '../../src'))).toEqual([]);
  });
});
