/**
 * The Windows families of issue 38, as data (windows-families.ts): every spelling in the issue is
 * refused with its family's reason, and the ordinary lines around them are not.
 */
import { describe, expect, it } from 'vitest';
import { windowsEnvFor } from '../../src/tools/shell/cmd-expand.js';
import { assessCommand, describeVerdict } from '../../src/tools/shell/policy.js';
import { loadBashParser } from '../../src/tools/shell/tree.js';
import { longName, normalSwitches, WINDOWS_FAMILIES } from '../../src/tools/shell/windows-families.js';

const home = 'C:\\Users\\ann';
const opts = {
  home,
  cwd: 'C:\\Users\\ann\\work',
  platform: 'win32' as const,
  env: { ...windowsEnvFor(home), APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' },
};
const verdict = (line: string) => assessCommand(line, opts);
const refusedBy = (line: string) =>
  verdict(line)
    .findings.filter((f) => f.level === 'refuse')
    .map((f) => f.rule);

const FAMILIES: Record<string, string[]> = {
  persistence: [
    'reg add HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\RunOnce /v x /d calc',
    'reg add "HKCU\\Software\\Microsoft\\Command Processor" /v AutoRun /d calc',
    'reg add HKCU\\Environment /v UserInitMprLogonScript /d calc',
    'reg add HKCU\\Environment /v Path /d zhi-output /f',
    'reg add "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon" /v Userinit /d x',
    'reg add "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Image File Execution Options\\sethc.exe" /v Debugger /d cmd',
    'reg add HKCU\\Software\\Classes\\ms-settings\\Shell\\Open\\command /ve /d calc /f',
    'reg.exe add HKCU\\Software\\Classes\\zhi\\shell\\open\\command /ve /d calc',
    'REG ADD hkcu\\software\\microsoft\\windows\\currentversion\\run -v x -d calc',
    'copy x.bat "%APPDATA%\\Microsoft\\Windows\\Start Menu\\Programs\\Startup\\x.bat"',
    'xcopy x.lnk "C:\\ProgramData\\Microsoft\\Windows\\Start Menu\\Programs\\StartUp\\"',
    'echo calc > "%APPDATA%\\Microsoft\\Windows\\Start Menu\\Programs\\Startup\\x.bat"',
    'regedit /s file.reg',
    'regedit.exe -s zhi-output\\x.reg',
    'reg import file.reg',
    'schtasks /create /tn x /tr calc /sc once /st 00:00',
    'schtasks -create -tn x -tr calc -sc onlogon',
    'SCHTASKS.EXE /Create /XML t.xml /TN x',
    'schtasks /delete /tn * /f',
    'C:\\Windows\\System32\\schtasks.exe /change /tn x /tr calc',
    'sc create evil binPath= C:\\x.exe',
    'sc.exe config foo binPath= x',
    'sc delete foo',
    'wmic /namespace:\\\\root\\subscription path __EventFilter create Name=x',
    'wmic /namespace:"\\\\root\\subscription" PATH CommandLineEventConsumer CREATE Name=x',
  ],
  'system-config': [
    'bcdedit /set testsigning on',
    'C:\\Windows\\System32\\bcdedit.exe /set {default} safeboot minimal',
    'BCDEDIT.EXE -set nx AlwaysOff',
    'cipher /w:C:\\',
    'cipher -w C:\\Users',
    'fsutil file setzerodata offset=0 length=9999 x',
    'fsutil behavior set disablelastaccess 1',
    'mountvol C: /d',
    'wevtutil cl System',
    'wevtutil.exe clear-log Security',
    'net user bob pw /add',
    'net localgroup administrators ann /add',
    'net share x=C:\\ /grant:everyone,full',
    'netsh advfirewall set allprofiles state off',
    'netsh wlan export profile key=clear folder=.',
    'setx PATH ""',
    'setx PATHEXT .exe',
    'setx COMSPEC C:\\x.exe',
    'vssadmin create shadow /for=C:',
    'wbadmin start backup -backupTarget:\\\\host\\x',
    'diskshadow /s x.txt',
    "wmic useraccount where name='ann' set disabled=true",
    'wmic service where name="WinDefend" call StopService',
  ],
  'path-hijack': [
    'set PATH=zhi-output;%PATH%& whoami',
    'set "PATH=.;%PATH%" & where git',
    'set PATH=C:\\Users\\ann\\work\\bin;%PATH%',
    'path \\\\host\\share;%PATH%',
    'set PATHEXT=.BAT;.EXE',
    'set COMSPEC=zhi-output\\x.exe',
  ],
  'hive-dump': [
    'reg save HKLM\\SAM sam.hive',
    'reg save hklm\\system sys.hive /y',
    'reg export HKEY_LOCAL_MACHINE\\SECURITY s.reg',
  ],
  'junction-out': [
    'mklink /j lnk C:\\Users\\ann & rd /s /q lnk',
    'mklink /J lnk %USERPROFILE%\\Documents',
    'mklink /d up ..\\other',
  ],
};

describe('the Windows families', () => {
  it('have a test line for every rule', () => {
    for (const r of WINDOWS_FAMILIES) expect(Object.keys(FAMILIES)).toContain(r.rule);
  });
  for (const [family, lines] of Object.entries(FAMILIES)) {
    it.each(lines)(`${family}: %s`, (line) => {
      expect(verdict(line).level).toBe('refuse');
      expect(refusedBy(line)).toContain(family);
    });
  }
});

/** Other spellings of programs and switches, as cmd.exe reads them. */
const SPELLINGS: [line: string, rule: string][] = [
  ['rd=/s=/q= C:\\', 'delete-critical'],
  ['rd ^"/s^" /q C:\\', 'delete-critical'],
  ['forfiles -c "cmd /c rd /s /q C:\\"', 'delete-critical'],
  ['forfiles /p . /c "cmd /c rd /s /q %USERPROFILE%"', 'delete-critical'],
  // Each file found is @file: a delete in the searched folder, the whole tree with /s.
  ['forfiles /p C:\\ /s /c "cmd /c del @file"', 'delete-critical'],
  ['forfiles /p %USERPROFILE% /s /m *.docx /c "cmd /c del @path"', 'delete-critical'],
  ['POWERS~1.EXE -c "rm x"', 'inline-code'],
  ['C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe -c "rm x"', 'inline-code'],
  ['C:\\Windows\\System32\\cmd.exe /c rd /s /q C:\\', 'delete-critical'],
  ['start /d C:\\ rd /s /q .', 'delete-critical'],
  ['pushd C:\\ & cmd /c del /s /q *', 'delete-critical'],
  ['cd /d C:\\ & cmd /c rd /s /q .', 'delete-critical'],
  ['start "" /dC:\\Users\\ann rd /s /q .', 'delete-critical'],
];

describe('other spellings', () => {
  it.each(SPELLINGS)('%s', (line, rule) => {
    expect(refusedBy(line)).toContain(rule);
  });
  it('normalises switches and short names', () => {
    expect(normalSwitches(['-create', '/W:C:\\', '/tn', 'key=clear'])).toEqual([
      '/create',
      '/w',
      '/tn',
      'key=clear',
    ]);
    expect(longName('powers~1')).toBe('powershell');
    expect(longName('progra~1')).toBe('progra~1');
  });
});

/** Ordinary lines in the same programs: not refused. */
const BENIGN = [
  'dir',
  'type notes.txt',
  'copy a.txt zhi-output\\b.txt',
  'findstr /i total report.csv',
  'reg query HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run',
  'reg add HKCU\\Software\\zhi-test /v x /d 1',
  'reg add HKCU\\Environment /v EDITOR /d notepad',
  'schtasks /query /fo list',
  'sc query',
  'bcdedit /enum',
  'fsutil fsinfo drives',
  'fsutil volume diskfree C:',
  'vssadmin list shadows',
  'wbadmin get versions',
  'net user',
  'net share',
  'netsh wlan show profiles',
  'setx EDITOR notepad',
  'set PATH=%PATH%;C:\\tools',
  'set X=1',
  'mklink /j lnk sub\\folder',
  'cipher /c a.txt',
  'wmic os get caption',
];

describe('ordinary lines near the families', () => {
  it.each(BENIGN)('%s', (line) => {
    expect(verdict(line).level).not.toBe('refuse');
  });
});

describe('an administrator console (the elevation fact injected)', () => {
  const as = (line: string, elevated: boolean) => assessCommand(line, { ...opts, elevated });
  it('refuses the system families in both consoles', () => {
    for (const family of ['system-config', 'persistence', 'hive-dump'])
      for (const line of FAMILIES[family]!) {
        expect(as(line, true).level).toBe('refuse');
        expect(as(line, false).level).toBe('refuse');
      }
  });
  it('says it in every question, and only there', () => {
    for (const line of ['dir', 'rd /s /q build', 'copy report.xlsx \\\\host\\drop\\']) {
      const v = as(line, true);
      expect(v.level).toBe('warn');
      expect(v.findings[0]?.rule).toBe('elevated');
      expect(describeVerdict(v).warning).toMatch(/^zhi runs as an administrator/);
      expect(as(line, false).findings.map((f) => f.rule)).not.toContain('elevated');
    }
    expect(describeVerdict(as('rd /s /q build', true)).warning).toMatch(/administrator.*delete/s);
  });
  it('is not said on other systems', async () => {
    await loadBashParser();
    expect(
      assessCommand('ls', { home: '/home/ann', cwd: '/home/ann/w', platform: 'linux', elevated: true }).level,
    ).toBe('allow');
  });
});
