/**
 * Shell words that name a secret (design §3, "Secrets never leave"): `cat ~/.ssh/id_rsa`,
 * `cp "$HOME/.aws/credentials" .`, `wc -l < .env`. Such a command is refused before anyone is
 * asked, by the same deny-list file_read uses (secrets.ts); the sandbox hides these places too,
 * but where there is no sandbox the refusal is all that stands between a key and the model.
 */
import { posix } from 'node:path';
import { secretByPath } from '../secrets.js';
import { VAR_END, VAR_START } from './parse.js';
import type { PathContext } from './targets.js';

const HOME_VAR = new RegExp(`${VAR_START}(HOME|USERPROFILE)(:?-[^${VAR_END}]*)?${VAR_END}`, 'gi');

/** The first word that names a secret file or folder, as written; undefined when none does. */
export function secretWordIn(words: readonly string[], ctx: PathContext): string | undefined {
  return words.find((w) => isSecretWord(w, ctx));
}

function isSecretWord(word: string, ctx: PathContext): boolean {
  // `--file=~/.ssh/id_rsa`, `-i~/.ssh/id_rsa`: the value of an option.
  let p = word.replace(/^--?[A-Za-z][\w-]*=/, '').replace(/\\/g, '/');
  p = p
    .replace(HOME_VAR, ctx.home)
    .replace(/^(%USERPROFILE%|\$env:USERPROFILE|\$HOME)(?=\/|$)/i, ctx.home)
    .replace(/^~(?=\/|$)/, ctx.home);
  // Any other variable or a substitution: the value is unknown here (the sandbox still hides it).
  if (p.includes(VAR_START) || p.trim() === '') return false;
  let abs: string;
  if (posix.isAbsolute(p) || /^[a-zA-Z]:\//.test(p)) abs = p;
  else if (ctx.cwd === '') abs = p;
  else abs = posix.join(ctx.cwd, p);
  return secretByPath(abs, { home: ctx.home }) !== undefined;
}
