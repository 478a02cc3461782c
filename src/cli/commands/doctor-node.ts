/**
 * `zhi doctor`'s Node check: which Node runs zhi and whether it still gets security fixes. From
 * npm or a checkout that Node is the person's to update; inside an executable it is zhi's own.
 */
import { t } from '../../support/i18n/index.js';
import { type InstallKind, nodeSupport } from '../../support/install.js';

/** An ended Node is a warning (a note: zhi still works), not a failure of `zhi doctor`. */
export function nodeCheck(
  kind: InstallKind,
  support = nodeSupport(),
): { ok: boolean; note?: boolean; lines: string[] } {
  const params = { node: support.version, date: support.endOfLife, how: t(`install.kind.${kind}`) };
  if (kind === 'exe') {
    return support.ended
      ? { ok: true, note: true, lines: [t('doctor.node.exeEol', params), t('doctor.node.exeEolTry')] }
      : { ok: true, lines: [t('doctor.node.exe', params)] };
  }
  return support.ended
    ? { ok: true, note: true, lines: [t('doctor.node.eol', params), t('doctor.node.eolTry')] }
    : { ok: true, lines: [t('doctor.node.ok', params)] };
}
