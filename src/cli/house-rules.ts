/**
 * The house rules of this folder (agent/instructions.ts) for the chat and for skill runs, read
 * once per process, and what the person must know about them said once: a file cut at its cap,
 * one left out past the total, an `@file` import not made — each naming the file.
 */
import { homedir } from 'node:os';
import {
  type Instructions,
  loadInstructions,
  MAX_FILE_CHARS,
  MAX_TOTAL_CHARS,
} from '../agent/instructions.js';
import { type MessageKey, t } from '../support/i18n/index.js';
import { visible } from '../support/sanitize.js';
import type { AppContext } from './context.js';
import { formatWarning } from './render/error.js';

let loaded: { key: string; rules: Promise<Instructions> } | undefined;

/** This folder's house rules; the first call says their cuts on stderr. */
export function houseRules(ctx: AppContext): Promise<Instructions> {
  const key = `${ctx.cwd}\n${ctx.paths.configDir}`;
  if (loaded?.key === key) return loaded.rules;
  const rules = loadInstructions(ctx.cwd, homedir(), ctx.paths.configDir).then((found) => {
    for (const line of houseRuleNotes(found)) process.stderr.write(formatWarning(line, ctx.err));
    return found;
  });
  loaded = { key, rules };
  return rules;
}

/** The notes for the person, in their language. */
export function houseRuleNotes(found: Instructions): string[] {
  const notes: string[] = [];
  for (const f of found.files)
    if (f.cut)
      notes.push(t('house.cut', { file: visible(f.path), chars: MAX_FILE_CHARS.toLocaleString('en') }));
  for (const path of found.skipped)
    notes.push(t('house.skipped', { file: visible(path), chars: MAX_TOTAL_CHARS.toLocaleString('en') }));
  for (const p of found.problems)
    notes.push(
      t('house.import', {
        file: visible(p.file),
        target: visible(p.target),
        why: t(`house.import.${p.code}` as MessageKey),
      }),
    );
  return notes;
}
