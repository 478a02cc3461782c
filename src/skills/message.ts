/** The user message of a skill run: what was asked, each input, the documents and per-file results. */
import { maxBy } from '../support/arrays.js';
import { untrusted } from '../support/untrusted.js';
import type { DocumentBlock } from './documents.js';
import type { InputValues } from './inputs.js';
import type { Skill } from './schema.js';

/** A per-file step's result (`each`), or several of them combined into one. */
export interface StepResult {
  /** The file it is for ("today/a.md"), or the first and last of the files it combines. */
  file: string;
  text: string;
  ok: boolean;
  /** A combined result: the files it covers (numbered from 1, in the folder's order). */
  files?: { from: number; to: number; total: number };
}

/** How a result is written in a run's message (`text` in place of its own). */
export function resultBlock(r: StepResult, text: string): string {
  const tag = r.files
    ? `<result files="${r.file}" note="files ${r.files.from} to ${r.files.to} of ${r.files.total}, their results combined">`
    : `<result file="${r.file}"${r.ok ? '' : ' failed="true"'}>`;
  return `${tag}\n${text}\n</result>`;
}

/** The user message of a run: what was asked, then each input and the documents' text. */
export function composeMessage(o: {
  skill: Skill;
  values: InputValues;
  /** Per path input: the blocks read for it (one for a file, several for a folder). */
  blocks: Map<string, { summary: string; docs: DocumentBlock[] }>;
  /** Results of a per-file step (`each`), keyed by input name. */
  results?: Map<string, StepResult[]>;
  caller?: string;
  instructions?: string;
  extraDocuments?: { name: string; text: string }[];
  /** A free-form skill: the person's own words, and the files they named. */
  task?: string;
  files?: DocumentBlock[];
}): string {
  const out: string[] = [];
  if (o.caller) {
    out.push(
      `This run is a step of the skill "${o.caller}". Give the complete result as your final answer (the calling skill reads it). Write a file only if the instructions below ask for one.`,
    );
  }
  if (o.instructions?.trim()) out.push(`Instructions: ${o.instructions.trim()}`);
  const lines: string[] = [];
  const docs: DocumentBlock[] = [];
  for (const arg of o.skill.args) {
    const v = o.values[arg.name];
    if (v === undefined) continue;
    const block = o.blocks.get(arg.name);
    if (block) {
      lines.push(`- ${arg.name}: ${block.summary}`);
      for (const d of block.docs) {
        if (block.docs.length > 1) lines.push(`  - ${d.name}: ${d.note}`);
        if (d.text !== undefined) docs.push(d);
      }
      continue;
    }
    const results = o.results?.get(arg.name);
    if (results) {
      const total = maxBy(results, (r) => r.files?.total ?? 0, results.length);
      const said =
        results.length === total
          ? 'the result for each is below'
          : `their results, combined in ${results.length} groups in the folder's order, are below`;
      lines.push(`- ${arg.name}: ${String(v)} (${total} files; ${said})`);
      continue;
    }
    lines.push(`- ${arg.name}: ${typeof v === 'string' && v.includes('\n') ? `\n${v}` : String(v)}`);
  }
  for (const d of o.files ?? []) {
    lines.push(`- file ${d.name}: ${d.note}`);
    if (d.text !== undefined) docs.push(d);
  }
  for (const d of o.extraDocuments ?? [])
    lines.push(`- ${d.name}: a document given on standard input; its text is below`);
  if (o.task?.trim()) out.push(`The person's request, in their words:\n${o.task.trim()}`);
  if (lines.length) out.push(`Inputs:\n${lines.join('\n')}`);
  else if (!o.task?.trim()) out.push('Run the skill (it was given no inputs).');
  const doc = (name: string, text: string, from: string) =>
    `<document name="${name}">\n${untrusted(text, from)}\n</document>`;
  for (const d of docs) out.push(doc(d.name, d.text ?? '', `file ${d.name}`));
  for (const d of o.extraDocuments ?? []) out.push(doc(d.name, d.text, 'standard input'));
  for (const [, results] of o.results ?? []) {
    for (const r of results) out.push(resultBlock(r, r.text));
  }
  return out.join('\n\n');
}
