import { type MessageKey, t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { formatBytes } from '../../support/text.js';
import { PIECE_SECONDS } from '../../tools/asr/audio.js';
import { ffmpegAdvice } from '../../tools/asr/ffmpeg.js';
import type { SandboxFacts, SandboxState } from '../../tools/shell/sandbox.js';
import type { Check } from './doctor-check.js';

/** The sandbox check as text; exported for tests. */
export function sandboxCheck(
  state: SandboxState,
  facts?: SandboxFacts,
  platform: NodeJS.Platform = process.platform,
): Check {
  if (state.kind === 'bwrap' && facts)
    return { ok: true, lines: [t('doctor.sandbox.bwrap'), ...factLines(facts)] };
  if (state.kind !== 'none') return { ok: true, lines: [t(`doctor.sandbox.${state.kind}`)] };
  const base = `doctor.sandbox.${state.reason}` as MessageKey;
  const detail = visible(state.detail?.split('\n')[0]?.slice(0, 200) ?? '');
  const lines = [t(base, { detail })];
  if (state.reason === 'broken') lines.push(t(brokenAdvice(state.detail ?? '', platform)));
  else if (state.reason !== 'unsupported') lines.push(t(`${base}Try` as MessageKey));
  return { ok: false, lines };
}

/**
 * What to try when the sandbox is there but does not start, for the cause its own words show
 * (issue 44: the sysctl for user namespaces was advised whatever the cause, on a Mac too).
 */
export function brokenAdvice(detail: string, platform: NodeJS.Platform): MessageKey {
  if (platform === 'darwin') return 'doctor.sandbox.brokenMacTry';
  if (
    /unprivileged_userns_clone|max_user_namespaces|No permissions to creat(e|ing) new namespace/i.test(detail)
  )
    return 'doctor.sandbox.brokenTry';
  if (/setting up uid map: Permission denied|apparmor/i.test(detail))
    return 'doctor.sandbox.brokenApparmorTry';
  if (/Operation not permitted|Can't mount|mount/i.test(detail)) return 'doctor.sandbox.brokenContainerTry';
  return 'doctor.sandbox.brokenOtherTry';
}

/** The seccomp allow-list and the limits, as `zhi doctor` says them. */
function factLines(f: SandboxFacts): string[] {
  const filter =
    f.syscalls === undefined
      ? t('doctor.sandbox.noSeccomp', { arch: f.arch })
      : t('doctor.sandbox.seccomp', { count: f.syscalls, arch: f.arch });
  const tmp = f.tmpBytes === undefined ? t('doctor.sandbox.tmpUncapped') : formatBytes(f.tmpBytes);
  return [
    filter,
    t('doctor.sandbox.limits', { tmp, file: formatBytes(f.fileBytes), processes: f.processes }),
  ];
}

/** Which reading paths office files have here: LibreOffice found or not. */
export function officeCheck(soffice: string | undefined): Check {
  if (soffice) return { ok: true, lines: [t('doctor.office.found', { path: visible(soffice) })] };
  const tryKey =
    process.platform === 'win32'
      ? 'doctor.office.tryWindows'
      : process.platform === 'darwin'
        ? 'doctor.office.tryMac'
        : 'doctor.office.tryLinux';
  return { ok: false, optional: true, lines: [t('doctor.office.missing'), t(tryKey)] };
}

/** Which recordings can be transcribed here: WAV and MP3 always, the rest with ffmpeg. */
export function audioCheck(ffmpeg: string | undefined): Check {
  // The part length said is the one the code cuts at (the README says it too).
  const seconds = PIECE_SECONDS;
  if (ffmpeg) return { ok: true, lines: [t('doctor.audio.ffmpeg', { path: visible(ffmpeg), seconds })] };
  return { ok: false, optional: true, lines: [t('doctor.audio.native', { seconds }), t(ffmpegAdvice())] };
}

/** Which interpreters run_script finds here (python3, node): one missing is a note, not a fault. */
export function scriptsCheck(found: { python?: string | undefined; node?: string | undefined }): Check {
  const lines = [
    found.python
      ? t('doctor.scripts.found', { language: 'Python 3', path: visible(found.python) })
      : t('doctor.scripts.missing', { language: 'Python 3', env: 'ZHI_PYTHON' }),
    found.node
      ? t('doctor.scripts.found', { language: 'Node.js', path: visible(found.node) })
      : t('doctor.scripts.missing', { language: 'Node.js', env: 'ZHI_NODE' }),
  ];
  return { ok: Boolean(found.python && found.node), optional: true, lines };
}
