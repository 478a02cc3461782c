/**
 * The settings of this invocation that more than one mode needs, each decided here once: the
 * chat model (chooseModel over /model, --model, a resumed session's model and config), the
 * permission mode, and the output folder (outputFolder).
 */
import type { PermissionMode } from '../agent/permissions.js';
import { chooseModel, type ModelChoice } from '../llm/choose.js';
import type { Platform } from '../llm/platforms.js';
import type { ResolvedConfig } from '../support/config.js';
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
export function outputDirOf(ctx: Pick<SettingsSource, 'args' | 'config' | 'cwd'>, skillDir?: string): string {
  return outputFolder({
    cwd: ctx.cwd,
    flag: ctx.args.flags.outputDir,
    configured: ctx.config.outputDir,
    skillDir,
  });
}
