import { defineMessages } from '../define.js';

/** The shell tool's sandbox, approval layout and `zhi doctor`. */
export const shell = defineMessages(
  {
    'shell.sandbox.on': 'sandboxed: reads this folder and system files, new files only in {dir}, no network',
    'shell.sandbox.onMac': 'sandboxed: reads this folder and the system, new files only in {dir}, no network',
    'shell.sandbox.onWidened': 'sandboxed: new files only in {dir}, reads this folder',
    'shell.sandbox.none': 'not sandboxed: this command can change any of your files and use the network',
    'shell.sandbox.noneOff':
      'not sandboxed (shell_sandbox is off): this command can change any of your files',
    'shell.choice.writeCwd': 'also write in this folder',
    'shell.choice.network': 'also use the network',
    'shell.choice.networkFiltered':
      'also reach the internet (through a filter: no local or private addresses)',
    'shell.choice.alwaysPrefix': 'always allow `{prefix}` this session (other options, the same files)',
    'shell.choice.alwaysExact': 'always allow `{command}` this session',
    'shell.bundled.header': 'It runs {file}, a script of the skill ({lines} lines):',
    'shell.bundled.more': '  … {count} more lines (type v to see them all)',
    'shell.bundled.unreadable':
      'It runs {file}, a file of the skill that cannot be shown (not text, or over 256 KB): approve it only if you trust the skill',
    'shell.preview.moreLines': '… {count} more lines — v to view all',
    'shell.preview.blankLines': '  ┆ … {count} empty lines …',
    'shell.preview.moreChars': '… {count} more characters — v to view all',
    'shell.refuse.control':
      'it contains control characters or escape sequences ({shown}), which could hide part of it on the screen',
    'doctor.title': 'zhi doctor — checks for this computer',
    'doctor.sandbox.bwrap':
      'Shell sandbox: bubblewrap works. Commands see only the current folder, system folders and installed programs (root-only files masked), add new files only in the output folder (earlier files there cannot be changed), and have no network, your secrets or the environment variables you did not name (shell_env), unless you allow more for one command; allowed network goes through zhi’s filter (public internet only).',
    'doctor.sandbox.seccomp':
      'System calls: an allow-list of {count} ({arch}); io_uring, the keyring, unix and vsock sockets and new namespaces are refused.',
    'doctor.sandbox.noSeccomp':
      'System calls: no filter for this processor ({arch}); unix sockets of the computer are still out of sight (no /run).',
    'doctor.sandbox.limits':
      'Limits: /tmp {tmp}, any file {file}, {processes} processes; time by each command’s timeout.',
    'doctor.sandbox.tmpUncapped': 'not capped (this bubblewrap has no --size)',
    'doctor.sandbox.seatbelt':
      'Shell sandbox: macOS sandbox-exec works. Commands write only to the output folder, with no network, unless you allow more for one command.',
    'doctor.sandbox.off':
      'Shell sandbox: turned off in your config (shell_sandbox: off). Commands you approve can change any of your files.',
    'doctor.sandbox.offTry': 'Turn it back on with: zhi config set shell_sandbox auto',
    'doctor.sandbox.windows':
      'Shell sandbox: not available on Windows. Commands you approve can change any of your files; read each one before you say yes.',
    'doctor.sandbox.windowsTry': 'For a sandbox, run zhi inside WSL (Ubuntu) with bubblewrap installed.',
    'doctor.sandbox.missing':
      'Shell sandbox: not available — bubblewrap (bwrap) is not installed. Commands you approve can change any of your files.',
    'doctor.sandbox.missingTry':
      'Install it: sudo apt-get install bubblewrap (Debian/Ubuntu), sudo dnf install bubblewrap (Fedora), sudo pacman -S bubblewrap (Arch).',
    'doctor.sandbox.broken':
      'Shell sandbox: bubblewrap is installed but cannot start a sandbox here ({detail}). Commands you approve can change any of your files.',
    'doctor.sandbox.brokenTry':
      'Unprivileged user namespaces are turned off here: sudo sysctl -w kernel.unprivileged_userns_clone=1 (or raise user.max_user_namespaces) turns them on, or ask your administrator.',
    'doctor.sandbox.brokenApparmorTry':
      'AppArmor keeps programs without a profile from using user namespaces (Ubuntu 23.10 and later): give bwrap an AppArmor profile, or sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or ask your administrator.',
    'doctor.sandbox.brokenContainerTry':
      'This looks like a container that does not allow new namespaces or mounts: run zhi outside it, or start the container with them allowed (Docker: --security-opt seccomp=unconfined --security-opt apparmor=unconfined), or ask your administrator.',
    'doctor.sandbox.brokenMacTry':
      'macOS did not start sandbox-exec: check that /usr/bin/sandbox-exec is there and not blocked by a management profile, or ask your administrator.',
    'doctor.sandbox.brokenOtherTry':
      'The words in brackets are bubblewrap’s own and zhi does not know this cause: bwrap --ro-bind / / true shows it failing the same way; ask your administrator.',
    'doctor.sandbox.privileged':
      'Shell sandbox: not used — bubblewrap here cannot drop its privileges ({detail}), so a command run as an administrator (root) could still change your files. Commands you approve are not contained; read each one before you say yes.',
    'doctor.sandbox.privilegedTry':
      'Run zhi as your normal user rather than as root (not with sudo), or update bubblewrap to a version that supports --unshare-user and --cap-drop.',
    'doctor.sandbox.unsupported':
      'Shell sandbox: not available on this system. Commands you approve can change any of your files.',
    'doctor.config.ok': 'Config: {path} (platform {platform}, language {language}).',
    'doctor.config.none': 'Config: there is no config file ({path}) and no API key.',
    'doctor.config.noneTry': 'Run `zhi --setup` to choose a platform and save your key.',
    'doctor.config.noneEnv':
      'Config: no config file ({path}); the key and settings come from the environment.',
    'doctor.key.missing': 'API key: none is set, so zhi cannot reach the model.',
    'doctor.key.missingTry': 'Run `zhi --setup`, or set the environment variable ZHI_API_KEY.',
    'doctor.key.ok': 'API key ({source}) works: {baseUrl} answered a one-token request.',
    'doctor.key.rejected': 'API key ({source}): the platform rejected it.',
    'doctor.net.unreachable': 'Network: {baseUrl} could not be reached.',
    'doctor.key.failed': 'API: a test request to {baseUrl} failed.',
    'doctor.mcp.ok': 'MCP servers: all started.',
    'doctor.mcp.someFailed': 'MCP servers: {n} could not be started.',
    'doctor.mcp.ready': '{name}: ready, {n} tools',
    'doctor.mcp.failed': '{name}: {error}',
    'doctor.mcp.try': 'See `zhi mcp list` and fix or remove the server with `zhi mcp remove <name>`.',
    'doctor.office.found':
      'Office files: LibreOffice found ({path}); old Word, Excel, PowerPoint and WPS files (.doc .xls .ppt .wps .et .dps .rtf) are read through it. .docx .xlsx .pptx and OpenDocument are read directly.',
    'doctor.office.missing':
      'Office files: LibreOffice not found. .docx .xlsx .pptx, OpenDocument, .doc/.wps and .rtf are still read (the old ones as plain text); .xls .et .ppt .dps cannot be read.',
    'doctor.office.tryLinux':
      'To read them, install LibreOffice: sudo apt install libreoffice-core (or your system’s package).',
    'doctor.office.tryMac': 'To read them, install LibreOffice: brew install --cask libreoffice',
    'doctor.office.tryWindows':
      'To read them, install LibreOffice: winget install TheDocumentFoundation.LibreOffice',
    'doctor.ok': 'Everything zhi can check looks fine.',
    'doctor.problems': 'Some checks need attention (see above).',
  },
  {
    'shell.sandbox.on': '已放入沙盒：只读本文件夹和系统文件，只能在 {dir} 中新建文件，不能联网',
    'shell.sandbox.onMac': '已放入沙盒：只读本文件夹和系统，只能在 {dir} 中新建文件，不能联网',
    'shell.sandbox.onWidened': '已放入沙盒：只能在 {dir} 中新建文件，只读本文件夹',
    'shell.sandbox.none': '未放入沙盒：这条命令可以修改你的任何文件，也可以联网',
    'shell.sandbox.noneOff': '未放入沙盒（shell_sandbox 已关闭）：这条命令可以修改你的任何文件',
    'shell.choice.writeCwd': '也允许写入当前文件夹',
    'shell.choice.network': '也允许联网',
    'shell.choice.networkFiltered': '也允许访问互联网（经过过滤：不能访问本机和内网地址）',
    'shell.choice.alwaysPrefix': '本次会话中总是允许 `{prefix}`（选项可以不同，文件必须相同）',
    'shell.choice.alwaysExact': '本次会话中总是允许 `{command}`',
    'shell.bundled.header': '它会运行技能自带的脚本 {file}（共 {lines} 行）：',
    'shell.bundled.more': '  ……还有 {count} 行（输入 v 查看全部）',
    'shell.bundled.unreadable':
      '它会运行技能中的文件 {file}，但该文件无法显示（不是文本，或超过 256 KB）：只有在信任这个技能时才批准',
    'shell.preview.moreLines': '… 还有 {count} 行 — 输入 v 查看全部',
    'shell.preview.blankLines': '  ┆ … {count} 个空行 …',
    'shell.preview.moreChars': '… 还有 {count} 个字符 — 输入 v 查看全部',
    'shell.refuse.control': '它含有控制字符或转义序列（{shown}），可能在屏幕上隐藏命令的一部分',
    'doctor.title': 'zhi doctor — 本机检查',
    'doctor.office.found':
      'Office 文件：已找到 LibreOffice（{path}）；旧版 Word、Excel、PowerPoint 和 WPS 文件（.doc .xls .ppt .wps .et .dps .rtf）通过它读取。.docx .xlsx .pptx 和 OpenDocument 直接读取。',
    'doctor.office.missing':
      'Office 文件：未找到 LibreOffice。.docx .xlsx .pptx、OpenDocument、.doc/.wps 和 .rtf 仍可读取（旧格式只读出纯文本）；.xls .et .ppt .dps 无法读取。',
    'doctor.office.tryLinux':
      '如需读取，请安装 LibreOffice：sudo apt install libreoffice-core（或系统对应的软件包）。',
    'doctor.office.tryMac': '如需读取，请安装 LibreOffice：brew install --cask libreoffice',
    'doctor.office.tryWindows':
      '如需读取，请安装 LibreOffice：winget install TheDocumentFoundation.LibreOffice',
    'doctor.sandbox.bwrap':
      '命令沙盒：bubblewrap 可用。命令只能看到当前文件夹、系统文件夹和已安装的程序（仅 root 可读的文件被屏蔽），只能在输出文件夹中新建文件（其中已有的文件不能被修改），不能联网，也看不到你的机密文件和你没有列出（shell_env）的环境变量，除非你为某条命令放宽；放宽后的网络经过 zhi 的过滤（只能访问公网）。',
    'doctor.sandbox.seccomp':
      '系统调用：允许清单共 {count} 个（{arch}）；io_uring、密钥环、unix 和 vsock 套接字以及新建命名空间都会被拒绝。',
    'doctor.sandbox.noSeccomp':
      '系统调用：这种处理器（{arch}）没有过滤器；本机的 unix 套接字仍然不可见（没有 /run）。',
    'doctor.sandbox.limits':
      '限制：/tmp {tmp}，单个文件 {file}，{processes} 个进程；时间由每条命令的超时限制。',
    'doctor.sandbox.tmpUncapped': '不限大小（这个 bubblewrap 不支持 --size）',
    'doctor.sandbox.seatbelt':
      '命令沙盒：macOS sandbox-exec 可用。命令只能写入输出文件夹、不能联网，除非你为某条命令放宽。',
    'doctor.sandbox.off':
      '命令沙盒：已在配置中关闭（shell_sandbox: off）。你批准的命令可以修改你的任何文件。',
    'doctor.sandbox.offTry': '重新打开：zhi config set shell_sandbox auto',
    'doctor.sandbox.windows':
      '命令沙盒：Windows 上不可用。你批准的命令可以修改你的任何文件；同意之前请逐条看清。',
    'doctor.sandbox.windowsTry': '想要沙盒，可以在 WSL（Ubuntu）中安装 bubblewrap 后运行 zhi。',
    'doctor.sandbox.missing':
      '命令沙盒：不可用——没有安装 bubblewrap（bwrap）。你批准的命令可以修改你的任何文件。',
    'doctor.sandbox.missingTry':
      '安装方法：sudo apt-get install bubblewrap（Debian/Ubuntu），sudo dnf install bubblewrap（Fedora），sudo pacman -S bubblewrap（Arch）。',
    'doctor.sandbox.broken':
      '命令沙盒：已安装 bubblewrap，但在这里无法启动沙盒（{detail}）。你批准的命令可以修改你的任何文件。',
    'doctor.sandbox.brokenTry':
      '这里关闭了非特权用户命名空间：sudo sysctl -w kernel.unprivileged_userns_clone=1（或调高 user.max_user_namespaces）可以打开，或询问管理员。',
    'doctor.sandbox.brokenApparmorTry':
      'AppArmor 不允许没有配置文件的程序使用用户命名空间（Ubuntu 23.10 及以后）：为 bwrap 添加 AppArmor 配置文件，或执行 sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0，或询问管理员。',
    'doctor.sandbox.brokenContainerTry':
      '这里看起来是一个不允许新建命名空间或挂载的容器：请在容器之外运行 zhi，或在启动容器时允许它们（Docker：--security-opt seccomp=unconfined --security-opt apparmor=unconfined），或询问管理员。',
    'doctor.sandbox.brokenMacTry':
      'macOS 没有启动 sandbox-exec：请检查 /usr/bin/sandbox-exec 是否存在、是否被管理配置文件禁用，或询问管理员。',
    'doctor.sandbox.brokenOtherTry':
      '括号中是 bubblewrap 自己的话，zhi 不认识这个原因：运行 bwrap --ro-bind / / true 可以看到同样的失败；请询问管理员。',
    'doctor.sandbox.privileged':
      '命令沙盒：未使用——这里的 bubblewrap 无法放弃管理员权限（{detail}），以管理员（root）身份运行的命令仍可能修改你的文件。你批准的命令不受限制；同意之前请逐条看清。',
    'doctor.sandbox.privilegedTry':
      '请以普通用户身份（而不是 root，也不要用 sudo）运行 zhi，或把 bubblewrap 升级到支持 --unshare-user 和 --cap-drop 的版本。',
    'doctor.sandbox.unsupported': '命令沙盒：此系统上不可用。你批准的命令可以修改你的任何文件。',
    'doctor.config.ok': '配置：{path}（平台 {platform}，语言 {language}）。',
    'doctor.config.none': '配置：没有配置文件（{path}），也没有 API 密钥。',
    'doctor.config.noneTry': '运行 `zhi --setup` 选择平台并保存密钥。',
    'doctor.config.noneEnv': '配置：没有配置文件（{path}）；密钥和设置来自环境变量。',
    'doctor.key.missing': 'API 密钥：尚未设置，zhi 无法连接模型。',
    'doctor.key.missingTry': '运行 `zhi --setup`，或设置环境变量 ZHI_API_KEY。',
    'doctor.key.ok': 'API 密钥（{source}）可用：{baseUrl} 回应了一次 1 个 token 的测试请求。',
    'doctor.key.rejected': 'API 密钥（{source}）：平台拒绝了它。',
    'doctor.net.unreachable': '网络：无法连接 {baseUrl}。',
    'doctor.key.failed': 'API：向 {baseUrl} 发送的测试请求失败。',
    'doctor.mcp.ok': 'MCP 服务器：全部已启动。',
    'doctor.mcp.someFailed': 'MCP 服务器：有 {n} 个无法启动。',
    'doctor.mcp.ready': '{name}：就绪，{n} 个工具',
    'doctor.mcp.failed': '{name}：{error}',
    'doctor.mcp.try': '用 `zhi mcp list` 查看，用 `zhi mcp remove <名称>` 修正或删除该服务器。',
    'doctor.ok': 'zhi 能检查的项目都正常。',
    'doctor.problems': '有些检查需要注意（见上文）。',
  },
);
