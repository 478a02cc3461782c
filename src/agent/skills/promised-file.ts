/**
 * In a folder run, a skill whose file is its answer (`output.answer: file`) promises a file for
 * every input: the run records it done only when it is on disk. When the model answers
 * in text instead — it forgot, or its file_write failed and it gave up — it is reminded once, in
 * the same conversation (so it can save what it already wrote without reading the input again).
 * A second answer without a file ends the run as an error with that reason: never "done" with
 * nothing on disk. Chosen over zhi saving the answer itself: the name, the format and whether the
 * text is the result at all are the model's to decide, and a wrong guess would be a file the
 * person did not ask for.
 */

import type { Message } from '../../llm/types.js';
import { ZhiError } from '../../support/errors.js';
import type { AgentResult, RunEvent } from '../events.js';
import { RESULT_PLACEHOLDER, type WholeResult, wholeAnswer } from './long-doc.js';

/** What the model is told when it answered without saving the file its skill promises. */
export const WRITE_REMINDER =
  'You answered without saving a file, but this task is done only when its result is saved with file_write. Call file_write now with the complete result (a plain file name, as the instructions say). If an earlier file_write failed, read its error and fix the name or the content.';

/** Did a run that promised a file end with an answer and nothing written? */
export function brokePromise(result: AgentResult): boolean {
  return result.stopReason === 'answer' && result.filesWritten.length === 0;
}

/**
 * Run the loop; when it answers without the promised file, remind it once and run again (a
 * second answer without a file is an error). No reminder when a write was refused or declined:
 * asking again would only ask the person again.
 */
export async function* keepPromise(
  messages: Message[],
  run: (maxTurns?: number) => AsyncGenerator<RunEvent, AgentResult>,
): AsyncGenerator<RunEvent, AgentResult> {
  let declined = false;
  const gen = run();
  let step = await gen.next();
  while (!step.done) {
    if (step.value.type === 'permission' && step.value.decision !== 'allowed') declined = true;
    yield step.value;
    step = await gen.next();
  }
  const first = step.value;
  if (!brokePromise(first) || declined) return first;
  messages.push({ role: 'user', content: WRITE_REMINDER });
  const second = yield* run(2);
  const result: AgentResult = {
    ...second,
    turns: first.turns + second.turns,
    toolCalls: first.toolCalls + second.toolCalls,
    filesRead: first.filesRead + second.filesRead,
    filesWritten: [...first.filesWritten, ...second.filesWritten],
  };
  if (!brokePromise(result)) return result;
  const error = new ZhiError({ kind: 'internal', what: { key: 'runs.err.noFileWritten' }, exitCode: 1 });
  yield { type: 'error', error };
  return { ...result, stopReason: 'error', error };
}

/**
 * The answer of a skill whose file is its answer: the text content it wrote (a long document's
 * whole result where the model wrote the placeholder). Undefined when nothing written was text
 * (an .xlsx's sheets): the model then answers itself.
 */
export function writtenAnswer(
  args: Record<string, unknown>[],
  whole: WholeResult | undefined,
  shown: (path: string) => string,
): string | undefined {
  const texts = args.map((a) => a.content).filter((c): c is string => typeof c === 'string');
  if (!texts.length) return undefined;
  const text = texts.join('\n\n');
  if (whole === undefined || !text.includes(RESULT_PLACEHOLDER)) return text;
  if (whole.text === undefined)
    return wholeAnswer(
      whole,
      args.map((a) => shown(String(a.path))),
    );
  return text.split(RESULT_PLACEHOLDER).join(whole.text);
}
