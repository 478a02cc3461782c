/** The desktop notification of a scheduled run, as each platform's own program is asked for it. */
import { describe, expect, it } from 'vitest';
import { notifiers } from '../../src/agent/schedule/os/notify.js';

const n = { title: `zhi: run "a" & 'b'`, body: '失败 — 2 of 5 files failed <x>' };

describe('notifiers', () => {
  it('Linux: notify-send, then gdbus on the freedesktop interface', () => {
    const [[first, args], [second, gargs]] = notifiers(n, 'linux') as [
      [string, string[]],
      [string, string[]],
    ];
    expect(first).toBe('notify-send');
    expect(args).toEqual(['--app-name=zhi', n.title, n.body]);
    expect(second).toBe('gdbus');
    expect(gargs).toContain('--method=org.freedesktop.Notifications.Notify');
    expect(gargs).toContain(n.body);
  });

  it('macOS: osascript with both strings quoted for AppleScript', () => {
    const [[program, args]] = notifiers(n, 'darwin') as [[string, string[]]];
    expect(program).toBe('osascript');
    expect(args[1]).toBe(
      `display notification "失败 — 2 of 5 files failed <x>" with title "zhi: run \\"a\\" & 'b'"`,
    );
  });

  it('Windows: a toast from PowerShell, its XML escaped and quoted for PowerShell', () => {
    const [[program, args]] = notifiers(n, 'win32') as [[string, string[]]];
    expect(program).toBe('powershell.exe');
    const script = args.at(-1)!;
    // Inside PowerShell's single quotes a quote is doubled.
    expect(script).toContain("<text>zhi: run &quot;a&quot; &amp; ''b''</text>");
    expect(script).toContain('<text>失败 — 2 of 5 files failed &lt;x&gt;</text>');
    expect(script).toContain('ToastNotificationManager]::CreateToastNotifier(');
  });
});
