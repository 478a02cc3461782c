import type { ErrorText, ZhiError } from '../support/errors.js';
import { type MessageKey, t } from '../support/i18n/index.js';

/** Advice that names a command-line flag, and what to say instead inside the REPL. */
const IN_REPL: Partial<Record<MessageKey, MessageKey>> = {
  'llm.balance.try1': 'input.advice.balanceRepl',
  'llm.balance.try1Custom': 'input.advice.balanceReplCustom',
  'llm.overloaded.try': 'input.advice.overloadedRepl',
  'llm.badRequest.try': 'input.advice.badRequestRepl',
  'llm.noModel.try1': 'input.advice.noModelRepl1',
  'llm.noModel.try2': 'input.advice.noModelRepl2',
  'llm.balance.try1Free': 'input.advice.balanceFreeRepl',
};

/**
 * An error's advice, fitted to where the person is: a rejected key that came from $ZHI_API_KEY
 * points at that variable (it wins over config.yaml, which `zhi config show` would show), and
 * inside the REPL advice names the slash command (/model) rather than the flag (--model).
 */
export function adviceFor(err: ZhiError, env: NodeJS.ProcessEnv = process.env, inRepl = false): string[] {
  const swap = (x: ErrorText): ErrorText => {
    if (x.key === 'llm.auth.try1' && env.ZHI_API_KEY) return { key: 'input.advice.authEnv' };
    const repl = inRepl ? IN_REPL[x.key] : undefined;
    return repl ? { ...x, key: repl } : x;
  };
  return err.tries.map((x) => {
    const y = swap(x);
    return t(y.key, y.params);
  });
}
