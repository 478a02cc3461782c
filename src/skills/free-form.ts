/**
 * Agent Skills written for other clients declare no inputs: the person types a task in their own
 * words and names files (`zhi run pdf f1040.pdf fill in my name`). For such a skill the command
 * line is split into that task text and the files it names.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Skill } from './schema.js';

/** A SKILL.md without zhi's own `input:` takes free text and files. */
export function isFreeForm(skill: Skill): boolean {
  return skill.format === 'skill-md' && skill.args.length === 0;
}

export interface FreeFormInput {
  /** The person's words, in the order given (named options as `name: value`). */
  task: string;
  /** Positional words that name an existing file, as typed. */
  files: string[];
}

/**
 * Positional words that name an existing file are files; every other word is part of the task.
 * `--name value` options the skill does not declare become `name: value` lines of the task, so
 * nothing the person typed is dropped.
 */
export async function splitFreeForm(
  cwd: string,
  positionals: readonly string[],
  named: Readonly<Record<string, string | true>>,
): Promise<FreeFormInput> {
  const words: string[] = [];
  const files: string[] = [];
  for (const p of positionals) {
    const st = await stat(resolve(cwd, p)).catch(() => undefined);
    if (st?.isFile()) files.push(p);
    else words.push(p);
  }
  const options = Object.entries(named).map(([k, v]) => (v === true ? k : `${k}: ${v}`));
  return { task: [words.join(' '), ...options].filter(Boolean).join('\n'), files };
}
