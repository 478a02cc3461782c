/**
 * `zhi --version`: the version, how this zhi was installed and the Node it runs on. Loaded alone by
 * the entry point (no config, no app), in the language of the flag or the environment.
 */
import { resolveLanguage, setLanguage, t } from '../support/i18n/index.js';
import { installKind } from '../support/install.js';

export function versionLine(): string {
  return t('install.version', {
    version: __ZHI_VERSION__,
    how: t(`install.kind.${installKind()}`),
    node: process.version,
  });
}

export function printVersion(languageFlag?: string): void {
  setLanguage(resolveLanguage({ flag: languageFlag }));
  process.stdout.write(`${versionLine()}\n`);
}
