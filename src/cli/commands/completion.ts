/**
 * `zhi completion bash|zsh|fish|powershell` prints the shell's completion script; the hidden
 * `zhi __complete skills` prints the skill names one a line for those scripts.
 */
import { ExitCode, type ExitCodeValue, ZhiError } from '../../support/errors.js';
import { COMPLETION_SHELLS, type CompletionShell, completionScript } from '../completion.js';
import type { AppContext } from '../context.js';
import { loadCatalog } from '../skills/catalog.js';

export async function run(ctx: AppContext): Promise<ExitCodeValue> {
  const [word] = ctx.args.positionals;
  if (ctx.args.subcommand === '__complete') {
    if (word === 'skills') {
      const catalog = await loadCatalog(ctx, () => {});
      process.stdout.write(
        [...catalog.skills.keys()]
          .sort()
          .map((n) => `${n}\n`)
          .join(''),
      );
    }
    return ExitCode.ok;
  }
  if (!word || !(COMPLETION_SHELLS as readonly string[]).includes(word)) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'cli.completion.usage' },
      tries: [{ key: 'cli.completion.try' }],
    });
  }
  process.stdout.write(completionScript(word as CompletionShell));
  return ExitCode.ok;
}
