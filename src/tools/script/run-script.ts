/**
 * run_script: the model writes a short Python or Node script and runs it — what Anthropic's
 * document skills (xlsx, docx, pptx, pdf) and "use library X" skills ask for. The shell keeps
 * refusing `python3 -c`, heredocs and programs in the output folder (their code cannot be read
 * before they run); this is the structured way instead: the code is an argument, shown whole in
 * the approval (sanitized, with its line count), written into the workspace (scratch.ts) and run
 * with the interpreter found here, inside the shell's OS sandbox (no network unless the person
 * allows it, new files only in the output folder). Where there is no sandbox, every run asks,
 * whatever the mode, and no "always" is offered.
 */
import { z } from 'zod';
import { t } from '../../support/i18n/index.js';
import { controlsIn, hasControl } from '../../support/sanitize.js';
import { formatBytes } from '../../support/text.js';
import type { SandboxedResult } from '../shell/sandbox.js';
import type { Assessment, ShellSettings, Tool, ToolContext, ToolResult } from '../types.js';
import { ToolError } from '../types.js';
import { MAX_OUTPUT_BYTES, SCRIPT_TOOL } from './entry.js';
import {
  findInterpreter,
  INTERPRETERS,
  installName,
  LANGUAGES,
  missingModule,
  type ScriptLanguage,
  shellWord,
} from './interpreters.js';
import { newFiles, outputFiles, WORK_FOLDER, writeScript } from './scratch.js';

/** Lines of the script shown in the approval before `v` shows the rest. */
const SHOWN_LINES = 40;

const schema = z.object({
  language: z.enum(LANGUAGES),
  code: z.string().min(1).max(200_000),
  name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,59}$/)
    .optional()
    .describe('File stem, e.g. make_report.'),
  timeout: z.number().int().min(1).max(600).default(120).describe('Seconds.'),
});

type Args = z.infer<typeof schema>;

const DEFAULT_SETTINGS: ShellSettings = { sandbox: 'auto', envNames: [] };

const lines = (code: string) => code.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');

export function createScriptTool(settings: ShellSettings = DEFAULT_SETTINGS): Tool<typeof schema> {
  return {
    name: SCRIPT_TOOL.name,
    traits: SCRIPT_TOOL.traits,
    description: [
      'Write a Python or Node (ES module) script and run it; the user sees the code and approves.',
      'For work a library does (openpyxl, python-docx, exceljs…). It runs in the current folder, sandboxed:',
      'no network, new files only in the output folder (e.g. zhi-output/report.xlsx).',
      `Output ≤ ${formatBytes(MAX_OUTPUT_BYTES)}.`,
    ].join(' '),
    schema,
    // In the sandbox a script can do no more than file_write (new files in the output folder), so
    // --auto runs it; without one, `assess` says it must be asked every time.
    kind: 'risky',
    label: (args) => `${args.name ?? 'script'}.${INTERPRETERS[args.language].ext}`,
    preview: (args) => {
      const all = lines(args.code);
      const header = t('script.preview.header', {
        language: INTERPRETERS[args.language].shown,
        lines: all.length,
      });
      const shown = all.slice(0, SHOWN_LINES);
      const more = all.length - shown.length;
      return [
        header,
        ...shown.map((l) => `  ${l}`),
        ...(more > 0 ? [t('script.preview.more', { count: more })] : []),
      ].join('\n');
    },
    assess: (args, ctx) => assess(args, ctx, settings),
    execute: (args, ctx) => execute(args, ctx, settings),
  };
}

async function assess(args: Args, ctx: ToolContext, settings: ShellSettings): Promise<Assessment> {
  const code = args.code.replace(/\r\n?/g, '\n');
  // A control character could make the code look different on the screen from what runs.
  if (hasControl(code)) return { refuse: t('script.refuse.control', { shown: controlsIn(code).join(' ') }) };
  const spec = INTERPRETERS[args.language];
  if (!findInterpreter(args.language))
    return { refuse: t('script.refuse.noInterpreter', { language: spec.shown, env: spec.env }) };
  const [{ sandboxSoon }, { sandboxSummary }] = await Promise.all([
    import('../shell/sandbox.js'),
    import('../shell/shell.js'),
  ]);
  const state = await sandboxSoon(settings.sandbox);
  const all = lines(args.code);
  const full =
    all.length > SHOWN_LINES
      ? {
          full: [
            t('script.preview.header', { language: spec.shown, lines: all.length }),
            ...all.map((l) => `  ${l}`),
          ].join('\n'),
        }
      : {};
  if (state.kind === 'none') {
    const reason = state.reason === 'off' ? 'script.sandbox.noneOff' : 'script.sandbox.none';
    return { asks: true, summary: { text: t(reason), risky: true }, ...full };
  }
  const summary = sandboxSummary(state, ctx);
  // Only the network widens a script's sandbox: it writes new files in the output folder alone.
  const choices = (summary.choices ?? []).filter((c) => c.grant === 'network');
  return { ...summary, choices, ...full };
}

async function execute(args: Args, ctx: ToolContext, settings: ShellSettings): Promise<ToolResult> {
  const spec = INTERPRETERS[args.language];
  const interpreter = findInterpreter(args.language);
  if (!interpreter) {
    throw new ToolError(
      `${spec.shown} is not installed here (or not on PATH), so the script cannot run. Tell the user what is missing; write it in the other language if that is installed.`,
      { key: 'script.refuse.noInterpreter', params: { language: spec.shown, env: spec.env } },
    );
  }
  const file = await writeScript(
    ctx.outputDir,
    ctx.cwd,
    args.name ?? 'script',
    spec.ext,
    args.code.replace(/\r\n?/g, '\n'),
  );
  const before = await outputFiles(ctx.outputDir);
  const [{ runSandboxed }, { commandEnv }] = await Promise.all([
    import('../shell/sandbox.js'),
    import('../shell/env.js'),
  ]);
  const command = [interpreter, ...spec.options, file].map(shellWord).join(' ');
  const result = await runSandboxed(command, {
    cwd: ctx.cwd,
    outputDir: ctx.outputDir,
    allowWriteCwd: false,
    allowNetwork: (ctx.granted ?? []).includes('network'),
    ...(ctx.extraReadable?.length ? { extraReadable: [...ctx.extraReadable] } : {}),
    timeoutMs: args.timeout * 1000,
    signal: ctx.signal,
    maxBytes: MAX_OUTPUT_BYTES,
    env: commandEnv(process.env, settings.envNames),
    mode: settings.sandbox,
  });
  if (result.spawnError) throw new ToolError(`The script could not be started: ${result.spawnError}`);
  if (result.aborted)
    throw new ToolError('Interrupted by the user; the script and everything it started were stopped.');
  const made = await newFiles(ctx.outputDir, before);
  for (const f of made) ctx.recordFile({ path: f.path, bytes: f.bytes });
  return report({ args, interpreter, file, made }, result);
}

/** What the model is told of a finished script (and the person, where something is missing). */
function report(
  run: { args: Args; interpreter: string; file: string; made: { shown: string }[] },
  result: SandboxedResult,
): ToolResult {
  const { args, interpreter, file, made } = run;
  const spec = INTERPRETERS[args.language];
  const missing = result.exitCode !== 0 ? missingModule(args.language, result.stderr) : undefined;
  const parts = [
    result.timedOut
      ? `The script did not finish within ${args.timeout} s and was stopped, with everything it started.`
      : result.exitCode !== null
        ? `Exit code: ${result.exitCode} (${(result.durationMs / 1000).toFixed(1)} s)`
        : `The script was ended by signal ${result.signal ?? 'unknown'}.`,
    ...(result.stdout ? [`stdout:\n${result.stdout.replace(/\n$/, '')}`] : []),
    ...(result.stderr ? [`stderr:\n${result.stderr.replace(/\n$/, '')}`] : []),
    `The script was saved as ${WORK_FOLDER}/…/${file.split(/[\\/]/).pop()} in the output folder (read-only while it runs).`,
    made.length
      ? `New files in the output folder: ${made.map((f) => f.shown).join(', ')}`
      : 'It made no new file in the output folder.',
    ...(missing
      ? [
          `The ${spec.shown} module "${missing}" is not installed here. Do not try to install it (there is no network, and installing is the user's decision). Tell the user it is missing and how to install it (${installHint(args.language, missing)}), or do the work without it (file_write writes xlsx, docx, pptx and csv itself).`,
        ]
      : []),
    ...(result.droppedBytes > 0
      ? [
          `[output truncated: kept the first ${formatBytes(MAX_OUTPUT_BYTES)} of ${formatBytes(result.totalBytes)}]`,
        ]
      : []),
    result.sandbox.kind === 'none'
      ? 'It ran without a sandbox.'
      : 'It ran in the sandbox: new files only in the output folder, a private /tmp, no network unless the user allowed it.',
  ];
  // 127: the shell found no program there — an interpreter the sandbox does not show (a shim in
  // a hidden home folder) or one removed since it was found.
  const unreachable =
    result.exitCode === 127 && !result.stdout && /not found|No such file/i.test(result.stderr);
  if (unreachable)
    parts.push(
      `${spec.shown} at ${interpreter} could not be started here (it may lie in a folder the sandbox does not show). Tell the user; they can set ${spec.env} to an interpreter in a system folder.`,
    );
  const display = missing
    ? [
        t('script.missing', {
          language: spec.shown,
          module: missing,
          install: installHint(args.language, missing),
        }),
      ]
    : unreachable
      ? [t('script.unreachable', { language: spec.shown, path: interpreter, env: spec.env })]
      : [];
  return {
    content: parts.join('\n\n'),
    isError: result.timedOut || result.exitCode !== 0,
    ...(display.length ? { display } : {}),
  };
}

function installHint(language: ScriptLanguage, module: string): string {
  const name = installName(language, module);
  return language === 'python' ? `python3 -m pip install ${name}` : `npm install ${name}`;
}

export default createScriptTool();
