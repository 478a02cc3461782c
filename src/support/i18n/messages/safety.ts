import { defineMessages } from '../define.js';

// Refusals that keep files and secrets safe (paths the model gives, secrets, web_fetch, names).
export const safety = defineMessages(
  {
    'safety.outside':
      'Refused to read "{path}": it is outside the current folder, and files the model names must stay inside it. To use that file, give it to zhi yourself (for example on the command line), or start zhi in its folder.',
    'safety.scope.hidden':
      'Not read: "{path}" is a hidden file — its name, or a folder above it, starts with a dot. Name it yourself to let zhi read it: put this exact path in your message.',
    'safety.scope.vcs':
      'Not read: "{path}" is inside version-control internals (.git, .hg, .svn…), where tokens and remote addresses are kept. Name it yourself to let zhi read it: put this exact path in your message.',
    'safety.scope.state':
      'Not read: "{path}" is a state or credentials file (terraform state, master.key, credentials.*, secrets.*). Name it yourself to let zhi read it: put this exact path in your message.',
    'safety.scope.home_dot':
      'Not read: "{path}" is one of your home folder\'s hidden files, and zhi was started in the home folder, where they hold your keys and settings. To use it, attach it yourself with @ and its path, or start zhi in a project folder.',
    'safety.secret.zhi':
      'Refused to read "{path}": it is one of zhi\'s own files (settings, API key, history, sessions or logs). Secrets never leave this computer. If you really mean to share it, attach the file yourself.',
    'safety.secret.credentials':
      'Refused to read "{path}": it is in a credentials folder (SSH, GPG, cloud or package-registry keys). Secrets never leave this computer. If you really mean to share it, attach the file yourself.',
    'safety.secret.env':
      'Refused to read "{path}": .env files usually hold passwords and keys. Secrets never leave this computer. If you really mean to share it, attach the file yourself.',
    'safety.secret.private_key':
      'Refused to read "{path}": it holds a private key. Secrets never leave this computer. If you really mean to share it, attach the file yourself.',
    'safety.secret.history':
      'Refused to read "{path}": it is a shell or program history, where passwords and tokens typed on command lines are kept. Secrets never leave this computer. If you really mean to share it, attach the file yourself.',
    'safety.secret.browser':
      'Refused to read "{path}": it is in a browser profile or keychain folder (saved passwords, cookies). Secrets never leave this computer. If you really mean to share it, attach the file yourself.',
    'safety.secret.api_key':
      'Refused to read "{path}": it contains your zhi API key. Secrets never leave this computer. If you really mean to share it, attach the file yourself.',
    'safety.egress.secret':
      "{name} was refused: what it would send off this computer (a web address, a search, or a tool's arguments) holds a secret — an API key, token, password or private key. Nothing was sent.",
    'safety.search.each':
      'web_search sends these words to the search service of your platform. Each search is asked about.',
    'safety.egress.noTerminal':
      'Not run ({name}): it would send data the model put together off this computer — to {to}: {data} — and there is no terminal to ask you. Nothing was sent. {hint}',
    'safety.egress.hint.url':
      'If you want it, type the address in your message, allow the site in config (web_allow), or run zhi in a terminal and answer the question.',
    'safety.egress.hint.query':
      'If you want it, run zhi in a terminal and answer the question, or let every search go unasked with web_search: allow in config.',
    'safety.egress.hint.args':
      'If this server may receive data unasked, add egress: true to its entry in config.yaml; or run zhi in a terminal and answer the question.',
    'safety.egress.hint.upload':
      'If you want it, name the file in your message, or run zhi in a terminal and answer the question.',
    'safety.egress.sends': 'This sends data the model put together off your computer, to {to} (shown above).',
    'safety.egress.decoded': 'Decoded: {data}',
    'safety.upload.unnamed':
      'Not sent: a skill step chosen by the model would upload {file} to the platform to be read (OCR, speech or the file parser), and you did not name that file. Nothing was sent. Name the file in your message if you want it read.',
    'safety.hidden.vanish': 'hidden text',
    'safety.hidden.white': 'white text',
    'safety.hidden.tiny': 'text too small to see',
    'safety.hidden.sheet': 'the hidden sheet “{sheet}”',
    'safety.hidden.cells': 'hidden rows or columns of the sheet “{sheet}”',
    'safety.hidden.comment': 'a comment',
    'safety.hidden.instructions':
      '{file} hides text that reads like an instruction ({what}, not shown when the file is opened): “{text}”. The model was told it is hidden and is data, not a request of yours; say no to anything it asks that you did not ask for.',
    'safety.fetch.always': 'always for {host}',
    'safety.fetch.question': 'Allow? [y = this once / a = {always} / N]',
    'safety.fetch.address': 'Address: {url}',
    'safety.fetch.site': 'Site:    {host}',
    'safety.fetch.longQuery':
      'This address carries {n} characters of data after "?". Check that it holds nothing private (a key, a password, your files) before you allow it.',
    'safety.name.control':
      'Not written: the file name "{name}" contains a control character (a line break or similar). Use a name such as "{instead}".',
    'safety.name.invisible':
      'Not written: the file name "{name}" contains invisible or direction-changing characters, which can make a name look like another ("a\\u202Egpj.md" shows as "adm.jpg"). Use a name such as "{instead}".',
    'safety.name.lookalike':
      'Not written: "{name}" looks like the file "{existing}" that is already there, but is another name (a look-alike letter, another Unicode form, or an invisible character). Two files you could not tell apart would be confusing, or a trap.',
    'safety.name.char':
      'Not written: the file name "{name}" contains a character Windows does not allow (: * ? " < > |). Use a name such as "{instead}".',
    'safety.name.reserved':
      'Not written: "{name}" is a reserved device name on Windows (CON, PRN, AUX, NUL, COM1–9, LPT1–9, whatever the extension). Use a name such as "{instead}".',
    'safety.name.trailing':
      'Not written: the file name "{name}" ends with a dot or a space, which Windows removes. Use a name such as "{instead}".',
    'safety.name.long':
      'Not written: the file name "{name}" is longer than 255 bytes. Use a shorter name such as "{instead}".',
    'safety.outputLink':
      'Not written: the output folder "{path}" is a symbolic link (to {target}); zhi writes only into a real folder. Choose a real folder with --output-dir.',
    'safety.write.changed':
      'Not written: the folder of {path} changed while you were being asked (it was moved, or replaced by a link). Nothing was written; check the folder and try again.',
    'safety.write.busy':
      'Could not replace {path}: it is open in another program. Close it in Excel (or Word, WPS) and try again. Nothing was written.',
  },
  {
    'safety.outside':
      '已拒绝读取“{path}”：它在当前文件夹之外，模型指定的文件必须位于当前文件夹内。如需使用该文件，请自己把它交给 zhi（例如写在命令行上），或在它所在的文件夹里启动 zhi。',
    'safety.scope.hidden':
      '未读取：“{path}”是隐藏文件（它的名字或上层某个文件夹以点开头）。如需让 zhi 读取，请自己点名：在消息里写出这个确切的路径。',
    'safety.scope.vcs':
      '未读取：“{path}”位于版本控制的内部文件夹（.git、.hg、.svn 等）中，那里保存着令牌和远程地址。如需让 zhi 读取，请自己点名：在消息里写出这个确切的路径。',
    'safety.scope.state':
      '未读取：“{path}”是状态或凭据文件（terraform 状态、master.key、credentials.*、secrets.*）。如需让 zhi 读取，请自己点名：在消息里写出这个确切的路径。',
    'safety.scope.home_dot':
      '未读取：“{path}”是你主文件夹里的隐藏文件，而 zhi 是在主文件夹中启动的，那里的隐藏文件保存着你的密钥和设置。如需使用，请自己用 @ 加路径附加它，或在项目文件夹中启动 zhi。',
    'safety.secret.zhi':
      '已拒绝读取“{path}”：这是 zhi 自己的文件（设置、API 密钥、历史、会话或日志）。机密信息绝不离开这台电脑。如果你确实要分享它，请自己附加这个文件。',
    'safety.secret.credentials':
      '已拒绝读取“{path}”：它位于凭据文件夹中（SSH、GPG、云服务或软件包仓库的密钥）。机密信息绝不离开这台电脑。如果你确实要分享它，请自己附加这个文件。',
    'safety.secret.env':
      '已拒绝读取“{path}”：.env 文件通常保存密码和密钥。机密信息绝不离开这台电脑。如果你确实要分享它，请自己附加这个文件。',
    'safety.secret.private_key':
      '已拒绝读取“{path}”：它包含私钥。机密信息绝不离开这台电脑。如果你确实要分享它，请自己附加这个文件。',
    'safety.secret.history':
      '已拒绝读取“{path}”：这是命令行或程序的历史记录，其中可能保存着在命令行上输入的密码和令牌。机密信息绝不离开这台电脑。如果你确实要分享它，请自己附加这个文件。',
    'safety.secret.browser':
      '已拒绝读取“{path}”：它位于浏览器配置或钥匙串文件夹中（保存的密码、Cookie）。机密信息绝不离开这台电脑。如果你确实要分享它，请自己附加这个文件。',
    'safety.secret.api_key':
      '已拒绝读取“{path}”：它包含你的 zhi API 密钥。机密信息绝不离开这台电脑。如果你确实要分享它，请自己附加这个文件。',
    'safety.egress.secret':
      '{name} 已被拒绝：它要发送到这台电脑之外的内容（网址、搜索词或工具参数）中含有机密信息——API 密钥、令牌、密码或私钥。没有发送任何内容。',
    'safety.search.each': 'web_search 会把这些词发送到你所用平台的搜索服务。每次搜索都会询问你。',
    'safety.egress.noTerminal':
      '未运行（{name}）：它会把模型组织的数据发送到这台电脑之外——发往 {to}：{data}——而这里没有终端可以询问你。没有发送任何内容。{hint}',
    'safety.egress.hint.url':
      '如果确实需要，请把网址写进你的消息、在配置中允许该网站（web_allow），或在终端中运行 zhi 并回答询问。',
    'safety.egress.hint.query':
      '如果确实需要，请在终端中运行 zhi 并回答询问，或在配置中设置 web_search: allow，让每次搜索都不再询问。',
    'safety.egress.hint.args':
      '如果这个服务器可以不经询问接收数据，请在 config.yaml 中它的条目里加上 egress: true；或在终端中运行 zhi 并回答询问。',
    'safety.egress.hint.upload': '如果确实需要，请在消息中写出这个文件名，或在终端中运行 zhi 并回答询问。',
    'safety.egress.sends': '这会把模型组织的数据发送到你的电脑之外，发往 {to}（内容见上）。',
    'safety.egress.decoded': '解码后：{data}',
    'safety.upload.unnamed':
      '未发送：模型选择的技能步骤会把 {file} 上传到平台进行读取（OCR、语音识别或文件解析），而你没有指定这个文件。没有发送任何内容。如果需要读取它，请在消息中写出这个文件名。',
    'safety.hidden.vanish': '隐藏文字',
    'safety.hidden.white': '白色文字',
    'safety.hidden.tiny': '小到看不见的文字',
    'safety.hidden.sheet': '隐藏的工作表“{sheet}”',
    'safety.hidden.cells': '工作表“{sheet}”中隐藏的行或列',
    'safety.hidden.comment': '注释',
    'safety.hidden.instructions':
      '{file} 中藏有像指令一样的文字（{what}，打开文件时看不到）：“{text}”。已告知模型这是隐藏内容、只是数据而不是你的要求；凡是你没有要求的操作，请拒绝。',
    'safety.fetch.always': '对 {host} 始终允许',
    'safety.fetch.question': '允许吗？[y = 仅这一次 / a = {always} / N]',
    'safety.fetch.address': '网址：{url}',
    'safety.fetch.site': '网站：{host}',
    'safety.fetch.longQuery':
      '这个网址在“?”之后携带了 {n} 个字符的数据。允许之前请确认其中没有任何私密内容（密钥、密码、你的文件）。',
    'safety.name.control': '未写入：文件名“{name}”包含控制字符（换行等）。请改用“{instead}”这样的名字。',
    'safety.name.invisible':
      '未写入：文件名“{name}”包含不可见字符或改变文字方向的字符，会让名字看起来像另一个名字（“a\\u202Egpj.md”显示为“adm.jpg”）。请改用“{instead}”这样的名字。',
    'safety.name.lookalike':
      '未写入：“{name}”看起来和已有的文件“{existing}”一样，实际上却是另一个名字（形似的字母、不同的 Unicode 形式或不可见字符）。两个无法分辨的文件会让人混淆，甚至是陷阱。',
    'safety.name.char':
      '未写入：文件名“{name}”包含 Windows 不允许的字符（: * ? " < > |）。请改用“{instead}”这样的名字。',
    'safety.name.reserved':
      '未写入：“{name}”是 Windows 的保留设备名（CON、PRN、AUX、NUL、COM1–9、LPT1–9，无论扩展名是什么）。请改用“{instead}”这样的名字。',
    'safety.name.trailing':
      '未写入：文件名“{name}”以点或空格结尾，Windows 会把它去掉。请改用“{instead}”这样的名字。',
    'safety.name.long': '未写入：文件名“{name}”超过 255 字节。请改用更短的名字，例如“{instead}”。',
    'safety.outputLink':
      '未写入：输出文件夹“{path}”是一个符号链接（指向 {target}）；zhi 只写入真实的文件夹。请用 --output-dir 选择一个真实的文件夹。',
    'safety.write.changed':
      '未写入：询问期间 {path} 所在的文件夹发生了变化（被移动，或被替换成链接）。没有写入任何内容；请检查该文件夹后重试。',
    'safety.write.busy':
      '无法替换 {path}：它正被其他程序打开。请在 Excel（或 Word、WPS）中关闭它后重试。没有写入任何内容。',
  },
);
