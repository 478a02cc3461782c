import { defineMessages } from '../define.js';

// Strings of the shell policy on Windows (cmd.exe's grammar, the catastrophic Windows families).
// Refusal reasons are shown to the user and passed to the model in the same words.
export const windows = defineMessages(
  {
    'input.tool.absolute': 'it takes paths relative to the current folder, not absolute ones',
    'skills.edit.tryEditorWindows':
      'Set the EDITOR environment variable to your editor, e.g. setx EDITOR notepad, then open a new window.',
    'doctor.win.noKeyTry':
      'Run zhi --setup, or set ZHI_API_KEY (setx ZHI_API_KEY your-key, then open a new window).',
    'doctor.win.noNetworkTry':
      'Check the connection; behind a proxy, set HTTPS_PROXY (setx HTTPS_PROXY http://proxy:port).',
    'doctor.win.acl': 'Config privacy: only your account can read {file} (icacls applied).',
    'doctor.win.noAcl':
      'Config privacy: icacls could not limit {file} to your account; others on this computer may read your key.',
    'doctor.win.noAclTry': 'Run in a Command Prompt: icacls "{file}" /inheritance:r /grant:r "%USERNAME%":F',
    'doctor.win.shell': 'Shell: commands run with {shell}.',
    'doctor.win.noShell': 'Shell: {shell} was not found, so shell commands cannot run.',
    'doctor.win.noShellTry':
      'Check the ComSpec environment variable; it should be C:\\Windows\\System32\\cmd.exe.',
    'doctor.win.codePage': 'Console code page: {cp} (output that is not UTF-8 is read as {encoding}).',
    'doctor.win.codePageUnknown':
      'Console code page: unknown; output that is not UTF-8 is read as GBK (936).',
    'shell.refuse.cmdUnparsable':
      'cmd.exe would read this line in a way that cannot be checked before it runs: {reason}',
    'shell.cmd.caretEnd': 'it ends with ^, which joins it to a line that is not there',
    'shell.cmd.unbalanced': 'its parentheses do not match',
    'shell.cmd.forSyntax': 'its for loop is not written as "for %i in (…) do …"',
    'shell.cmd.modifier': 'a %VAR:…% expansion in it cannot be worked out',
    'shell.cmd.cmdcmdline': 'it uses %CMDCMDLINE%, whose value holds the command line itself',
    'shell.refuse.setThenUse':
      'it sets {name} and uses it on the same line, where cmd.exe may use the old or the new value; run the set first, then the command that uses it',
    'shell.refuse.registry':
      'it deletes registry keys or values under {key}, where Windows and your programs keep their settings',
    'doctor.win.elevated':
      'Console: zhi runs as an administrator. Every command it asks about could change all of Windows; system changes are refused, and each question says this. Start zhi from an ordinary console unless you need it.',
    'doctor.win.notElevated': 'Console: zhi runs without administrator rights.',
    'shell.refuse.killCritical':
      'it ends {name}, a process Windows cannot run without: the computer would stop or restart at once',
    'shell.refuse.denyAccess':
      'it takes access to {target} away ({program}), which can lock you or Windows out of it; change these permissions yourself if you mean it',
    'doctor.win.job':
      'Stopping commands: each runs in a Job Object (zhi-sandbox.exe), so a stop or a time limit ends everything it started at once.',
    'doctor.win.noJob':
      'Stopping commands: zhi-sandbox.exe was not found, so a stop ends commands with taskkill, which can miss what they started in the background.',
    'doctor.win.noJobTry':
      'Reinstall zhi (npm install -g, or the whole zhi download): the helper comes with it.',
    'doctor.win.restricted':
      'shell_sandbox: restricted — commands also run with a restricted token that can write only in zhi-output (new, not yet tested on a real Windows; if a command cannot write where it should, run zhi config set shell_sandbox auto).',
    'shell.warn.elevated':
      'zhi runs as an administrator here: this command would run with full rights over Windows, and there is no sandbox.',
    'shell.refuse.egress':
      'it sends {file} to another computer ({program}), and that file is outside the folder zhi works in; copy what should be sent into this folder first, or send it yourself',
    'shell.refuse.netUse':
      'it connects a network drive (net use), which can send files or your Windows password to another computer; connect it yourself if you mean it',
    'shell.refuse.scriptedTransfer':
      'it runs a transfer script ({program}) that zhi cannot read before it sends or fetches files',
    'shell.warn.egress': 'sends {file} off this computer ({program}) — the file leaves it',
    'shell.refuse.persistence':
      'it makes something start by itself later, outside this conversation ({what}: a start-up entry, a scheduled task, a service, a registry hook or the Startup folder); do this yourself if you mean it',
    'shell.refuse.systemConfig':
      'it changes how Windows itself works ({program}: boot, disks, event logs, accounts, shares, the firewall or system variables); on Windows there is no sandbox, so zhi does not run it — run it yourself if you mean it',
    'shell.refuse.pathHijack':
      'it changes {name} so that a program from this folder, a share or a relative place would run instead of the real one',
    'shell.refuse.hiveDump':
      "it copies the registry hive {key}, which holds password hashes and the computer's secrets; secrets never leave this computer",
    'shell.refuse.junction':
      'it makes a link to {target}, outside the folder zhi works in; a delete through the link would delete the files there',
    'shell.refuse.remoteCode':
      'it downloads or runs code from elsewhere ({program}), which cannot be checked',
    'shell.refuse.scriptUnread':
      'it runs the script {file}, whose content zhi cannot check (a batch file zhi could not read, or VBScript, JScript or HTML code); run it yourself if you trust it',
    'shell.refuse.localProgram':
      'it runs {file}, a program in the folder zhi works in (cmd.exe looks there before the installed programs); zhi cannot read a program, so it does not run one from here — run it yourself if you trust it',
    'shell.refuse.shadowCopies':
      'it deletes or disables Windows backups, shadow copies or recovery ({program})',
    'shell.refuse.deleteOutside':
      'it deletes everything under {target}, outside the folder zhi works in; on Windows there is no sandbox, so zhi deletes whole folders only inside the current folder (delete this one yourself, or start zhi in a folder that holds it)',
    'shell.refuse.mirror':
      'it mirrors onto {target} with {flag}, deleting everything there that is not in the source',
  },
  {
    'input.tool.absolute': '只能使用相对于当前文件夹的路径，不能使用绝对路径',
    'skills.edit.tryEditorWindows':
      '把环境变量 EDITOR 设为你的编辑器，例如 setx EDITOR notepad，然后打开一个新窗口。',
    'doctor.win.noKeyTry':
      '运行 zhi --setup，或设置 ZHI_API_KEY（setx ZHI_API_KEY 你的密钥，然后打开新窗口）。',
    'doctor.win.noNetworkTry':
      '检查网络连接；如果使用代理，设置 HTTPS_PROXY（setx HTTPS_PROXY http://代理:端口）。',
    'doctor.win.acl': '配置隐私：只有你的账户能读取 {file}（已应用 icacls）。',
    'doctor.win.noAcl':
      '配置隐私：icacls 无法把 {file} 限制为只有你的账户可读；这台电脑上的其他人可能读到你的密钥。',
    'doctor.win.noAclTry': '在命令提示符中运行：icacls "{file}" /inheritance:r /grant:r "%USERNAME%":F',
    'doctor.win.shell': 'Shell：命令由 {shell} 运行。',
    'doctor.win.noShell': 'Shell：找不到 {shell}，无法运行 shell 命令。',
    'doctor.win.noShellTry': '检查环境变量 ComSpec，它应为 C:\\Windows\\System32\\cmd.exe。',
    'doctor.win.codePage': '控制台代码页：{cp}（非 UTF-8 的输出按 {encoding} 读取）。',
    'doctor.win.codePageUnknown': '控制台代码页：未知；非 UTF-8 的输出按 GBK（936）读取。',
    'shell.refuse.cmdUnparsable': 'cmd.exe 对这行命令的解读方式在运行前无法检查：{reason}',
    'shell.cmd.caretEnd': '它以 ^ 结尾，会把它和并不存在的下一行连在一起',
    'shell.cmd.unbalanced': '它的括号不配对',
    'shell.cmd.forSyntax': '它的 for 循环不是“for %i in (…) do …”的写法',
    'shell.cmd.modifier': '其中的 %VAR:…% 展开无法确定结果',
    'shell.cmd.cmdcmdline': '它使用了 %CMDCMDLINE%，其值包含命令行本身',
    'shell.refuse.setThenUse':
      '它在同一行里设置并使用 {name}，cmd.exe 可能使用旧值也可能使用新值；请先单独运行 set，再运行使用它的命令',
    'shell.refuse.registry': '它会删除 {key} 下的注册表项或值，Windows 和你的程序把设置保存在那里',
    'doctor.win.elevated':
      '控制台：zhi 正以管理员身份运行。它请求运行的每条命令都可能改动整个 Windows；系统更改会被拒绝，每次询问也都会说明这一点。如非必要，请在普通控制台中启动 zhi。',
    'doctor.win.notElevated': '控制台：zhi 以普通权限（非管理员）运行。',
    'shell.refuse.killCritical': '它会结束 {name}，这是 Windows 运行必需的进程：电脑会立即停止或重启',
    'shell.refuse.denyAccess':
      '它会取消对 {target} 的访问权限（{program}），可能让你或 Windows 无法再使用它；如确有需要，请自己修改这些权限',
    'doctor.win.job':
      '停止命令：每条命令都在作业对象（Job Object，zhi-sandbox.exe）中运行，停止或超时时，它启动的所有进程会立即一起结束。',
    'doctor.win.noJob':
      '停止命令：找不到 zhi-sandbox.exe，停止命令时只能用 taskkill，可能漏掉命令在后台启动的进程。',
    'doctor.win.noJobTry': '重新安装 zhi（npm install -g，或下载完整的 zhi）：这个辅助程序随附其中。',
    'doctor.win.restricted':
      'shell_sandbox: restricted —— 命令还会以受限令牌运行，只能写入 zhi-output（新功能，尚未在真实的 Windows 上测试；如果命令无法写入应写的位置，请运行 zhi config set shell_sandbox auto）。',
    'shell.warn.elevated': 'zhi 此时以管理员身份运行：这条命令会以对 Windows 的完全权限运行，而且没有沙盒。',
    'shell.refuse.egress':
      '它会把 {file} 发送到另一台电脑（{program}），而这个文件不在 zhi 工作的文件夹内；请先把要发送的内容复制到这个文件夹，或自己发送',
    'shell.refuse.netUse':
      '它会连接网络驱动器（net use），可能把文件或你的 Windows 密码发送到另一台电脑；如确有需要，请自己连接',
    'shell.refuse.scriptedTransfer':
      '它会运行一个传输脚本（{program}），zhi 无法在它发送或下载文件之前读取该脚本',
    'shell.warn.egress': '把 {file} 发送出这台电脑（{program}）——文件会离开这台电脑',
    'shell.refuse.persistence':
      '它会让某个程序以后自动运行，而且在本次对话之外（{what}：开机启动项、计划任务、服务、注册表挂钩或“启动”文件夹）；如确有需要，请自己操作',
    'shell.refuse.systemConfig':
      '它会更改 Windows 本身的工作方式（{program}：启动、磁盘、事件日志、账户、共享、防火墙或系统变量）；Windows 上没有沙盒，所以 zhi 不运行它——如确有需要，请自己运行',
    'shell.refuse.pathHijack':
      '它会更改 {name}，使当前文件夹、共享文件夹或相对位置中的程序代替真正的程序运行',
    'shell.refuse.hiveDump':
      '它会复制注册表配置单元 {key}，其中保存着密码哈希和这台电脑的机密；机密信息绝不离开这台电脑',
    'shell.refuse.junction':
      '它会创建指向 {target} 的链接，而那里不在 zhi 工作的文件夹内；通过这个链接删除，会删掉那里的文件',
    'shell.refuse.remoteCode': '它会下载或运行来自别处的代码（{program}），运行前无法检查',
    'shell.refuse.scriptUnread':
      '它会运行脚本 {file}，zhi 无法检查其内容（读不到的批处理文件，或 VBScript、JScript、HTML 代码）；如果你信任它，请自己运行',
    'shell.refuse.localProgram':
      '它会运行 {file}，这是 zhi 工作文件夹里的程序（cmd.exe 会先在这里找，再找已安装的程序）；zhi 无法读取程序的内容，所以不从这里运行程序——如果你信任它，请自己运行',
    'shell.refuse.shadowCopies': '它会删除或停用 Windows 的备份、卷影副本或系统恢复（{program}）',
    'shell.refuse.deleteOutside':
      '它会删除 {target} 下的所有内容，而那里不在 zhi 工作的文件夹内；Windows 上没有沙盒，所以 zhi 只删除当前文件夹内的整个文件夹（请自己删除它，或在包含它的文件夹中启动 zhi）',
    'shell.refuse.mirror': '它会用 {flag} 镜像到 {target}，删除那里所有源文件夹中没有的内容',
  },
);
