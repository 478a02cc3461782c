/**
 * A desktop notification for a scheduled run that failed, was refused or found nothing to do
 * (issue 41 point 3), with what each desktop has without extra software: Windows' own toast
 * (PowerShell and the WinRT notification API, as PowerShell's own app), macOS's `osascript`,
 * and on Linux `notify-send` or, where it is missing, `gdbus` speaking the freedesktop
 * notification interface GNOME and KDE serve. Best effort: no session bus, no desktop, a
 * program missing — nothing is shown and nothing fails; the next zhi start says it anyway.
 */
import { execFile } from 'node:child_process';

export interface Notice {
  title: string;
  body: string;
}

/** How long a notifier may take before it is given up. */
const TIMEOUT_MS = 5000;

/** PowerShell's own app id: a toast needs one, and this one is registered on every Windows. */
const POWERSHELL_APP = '{1AC14E77-02E7-4E5D-B744-2EB1AE5198B7}\\WindowsPowerShell\\v1.0\\powershell.exe';

/** Text inside a single-quoted PowerShell or AppleScript string. */
const psQuoted = (s: string) => `'${s.replace(/'/g, "''")}'`;
const appleQuoted = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const xmlText = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The program and arguments that show `n` on this platform, first choice first. */
export function notifiers(n: Notice, platform: NodeJS.Platform = process.platform): [string, string[]][] {
  if (platform === 'win32') {
    const toast = `<toast><visual><binding template="ToastGeneric"><text>${xmlText(n.title)}</text><text>${xmlText(n.body)}</text></binding></visual></toast>`;
    const script = [
      '[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] > $null',
      '[Windows.Data.Xml.Dom.XmlDocument, Windows.Data.Xml.Dom.XmlDocument, ContentType = WindowsRuntime] > $null',
      '$x = New-Object Windows.Data.Xml.Dom.XmlDocument',
      `$x.LoadXml(${psQuoted(toast)})`,
      `[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier(${psQuoted(POWERSHELL_APP)}).Show([Windows.UI.Notifications.ToastNotification]::new($x))`,
    ].join('; ');
    return [['powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', script]]];
  }
  if (platform === 'darwin') {
    return [
      ['osascript', ['-e', `display notification ${appleQuoted(n.body)} with title ${appleQuoted(n.title)}`]],
    ];
  }
  return [
    ['notify-send', ['--app-name=zhi', n.title, n.body]],
    [
      'gdbus',
      [
        'call',
        '--session',
        '--dest=org.freedesktop.Notifications',
        '--object-path=/org/freedesktop/Notifications',
        '--method=org.freedesktop.Notifications.Notify',
        'zhi',
        '0',
        '',
        n.title,
        n.body,
        '[]',
        '{}',
        '-1',
      ],
    ],
  ];
}

function tryOne(program: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(program, args, { timeout: TIMEOUT_MS, windowsHide: true }, (err) => resolve(!err));
  });
}

/** Show `n` with the first notifier that works; false when none did. */
export async function notifyDesktop(
  n: Notice,
  platform: NodeJS.Platform = process.platform,
): Promise<boolean> {
  for (const [program, args] of notifiers(n, platform)) if (await tryOne(program, args)) return true;
  return false;
}
