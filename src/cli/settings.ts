/**
 * The settings of this invocation that more than one mode needs, each decided here once: the
 * chat model (chooseModel over /model, --model, a resumed session's model and config), the
 * permission mode, and the output folder (outputFolder).
 */
import type { PermissionMode } from '../agent/permissions.js';
import { chooseModel, type ModelChoice } from '../llm/choose.js';
import type { Platform } from '../llm/platforms.js';
import type { ResolvedConfig } from '../support/config.js';
import { type ErrorText, ZhiError } from '../support/errors.js';
import { folderProblem } from '../support/make-folder.js';
import { outputFolder } from '../support/output-dir.js';
import type { ParsedArgs } from './args.js';

interface SettingsSource {
  args: ParsedArgs;
  config: ResolvedConfig;
  platform: Pick<Platform, 'id'>;
  cwd: string;
}

/**
 * The chat model: one typed with `/model`, else `--model`, else a resumed session's (when it can
 * be used here), else `$ZHI_DEFAULT_MODEL` / `default_model` / glm-5.
 */
export function chatModel(ctx: SettingsSource, o: { typed?: string; session?: string } = {}): ModelChoice {
  return chooseModel(
    [
      { model: o.typed, source: '/model' },
      { model: ctx.args.flags.model, source: '--model' },
      { model: o.session, source: 'session', optional: true },
      { model: ctx.config.defaultModel, source: 'config' },
    ],
    { platform: ctx.platform, role: 'chat' },
  );
}

/** Risky tools ask (approve) unless `--auto` was given; `/auto` changes it for a REPL session. */
export function permissionMode(args: ParsedArgs): PermissionMode {
  return args.flags.auto ? 'auto' : 'approve';
}

/** Where this invocation writes files (a skill's own folder given, where that skill writes). */
export function outputDirOf(ctx: Pick<SettingsSource, 'config' | 'cwd'>, skillDir?: string): string {
  return outputFolder({
    cwd: ctx.cwd,
    configured: ctx.config.outputDir,
    source: ctx.config.sources.output_dir,
    skillDir,
  });
}

/** Why files cannot be written in a folder, in the person's words. */
function folderReason(err: NodeJS.ErrnoException): ErrorText {
  switch (err.code) {
    case 'ENOTDIR':
      return { key: 'cli.outputDir.notFolder', params: { path: err.path ?? '' } };
    case 'EROFS':
      return { key: 'cli.outputDir.readOnly' };
    case 'EACCES':
    case 'EPERM':
      return { key: 'cli.outputDir.permission' };
    default:
      return { key: 'cli.outputDir.cannotMake', params: { code: err.code ?? err.message } };
  }
}

/**
 * `--output-dir` given: the folder must be one zhi can write in, checked before anything runs
 * (a usage error, exit 2, naming the option and the folder) rather than after the model worked.
 */
export function checkOutputDir(ctx: Pick<SettingsSource, 'config'> & { outputDir: string }): void {
  if (ctx.config.sources.output_dir !== '--output-dir') return;
  const problem = folderProblem(ctx.outputDir);
  if (!problem) return;
  throw new ZhiError({
    kind: 'usage',
    what: { key: 'cli.outputDir.bad', params: { dir: ctx.outputDir } },
    why: folderReason(problem),
    tries: [{ key: 'cli.outputDir.try' }],
  });
}
