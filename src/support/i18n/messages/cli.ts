import { defineMessages } from '../define.js';

export const cli = defineMessages(
  {
    'cli.error': 'Error',
    'cli.warning': 'Warning',
    'cli.reason': 'Reason',
    'cli.try': 'Try',
    // Labels with their colon: a Chinese one takes the full-width colon and no space after it.
    'cli.errorLabel': 'Error: ',
    'cli.reasonLabel': 'Reason: ',
    'cli.tryLabel': 'Try:',
    'cli.label': '{label}:',
    // What marks a line in output without colour (piped, NO_COLOR), where ✖ ⚠ and dim text are not.
    'cli.tag.error': '[ERROR] ',
    'cli.tag.warn': '[WARN] ',
    'cli.tag.done': '[DONE] {line}',
    'cli.tag.tool': '[TOOL] ',
    'cli.interrupted': 'Interrupted.',
    'cli.err.unexpected': 'Something went wrong inside zhi.',
    'cli.why.said': '{by} said: “{said}”',
    'cli.by.platform': 'The platform',
    'cli.by.system': 'The system',
    'cli.by.program': 'The program',
    'cli.why.forModel':
      'The reason was written for the model, not for you; `zhi --debug` shows it, and it is in zhi.log.',
    'cli.err.diskFull': 'The disk is full: zhi could not save a file.',
    'cli.err.permission': 'zhi is not allowed to access a file it needs.',
    'cli.outputDir.bad': 'zhi cannot write files in the folder given with --output-dir: {dir}',
    'cli.outputDir.notFolder': '{path} is a file, not a folder.',
    'cli.outputDir.readOnly': 'It is on a read-only file system.',
    'cli.outputDir.permission': 'You do not have permission to write there.',
    'cli.outputDir.cannotMake': 'The system does not let zhi create a folder there ({code}).',
    'cli.outputDir.try': 'Give --output-dir a folder you can write in, for example --output-dir ./out.',
    'cli.try.freeSpace': 'Free some disk space and run the command again.',
    'cli.try.permissions': 'Check the permissions of the file or folder named above.',
    'cli.try.debug': 'Run again with --debug to see details, and report it if it keeps happening.',
    'cli.err.unknownFlag': 'Unknown option: {flag}',
    'cli.err.missingValue': 'The option {flag} needs a value.',
    'cli.err.badValue': 'The option {flag} does not accept "{value}".',
    'cli.err.badValueWhy': 'Allowed values: {allowed}.',
    'cli.err.unknownCommand': 'Unknown command: {name}',
    'cli.err.emptyMessage': 'There is no message to send.',
    'cli.err.emptyMessageWhy': 'The -c message was empty and nothing was piped in.',
    'cli.err.emptyStdinWhy': 'The text piped in on standard input was empty (or only spaces).',
    'cli.try.pipeText': 'Pipe in some text, e.g. `echo "your question" | zhi`, or a file: `zhi < notes.txt`.',
    'cli.try.help': 'Run `zhi --help` to see the commands and options.',
    'cli.completion.usage': 'Usage: zhi completion bash | zsh | fish | powershell',
    'update.notice':
      'zhi {latest} is out (you have {current}). {how} (Not wanted: zhi config set update_check false.)',
    'update.howNpm': 'Update with: npm install -g zhi@latest',
    'update.howExe': 'Download the new executable from the release page and put it in place of {path}.',
    'update.howSource': 'Update this checkout: git pull, npm ci, npm run build.',
    'cli.completion.try':
      'Run zhi completion bash > ~/.local/share/bash-completion/completions/zhi (the README says how for each shell).',
    'cli.try.didYouMean': 'Did you mean `{suggestion}`?',
    'cli.try.quote': 'To ask something, use `zhi -c "your question"` (quote the message).',
    // Commands and options are separated from what they do by a tab: help.ts lines them up.
    'cli.help': `zhi {version} — a terminal assistant for Zhipu GLM models

Usage:
  zhi\tchat (reads the message from stdin when it is piped)
  zhi -c, --command "<message>"\task once; piped stdin is attached as a document
  zhi run <skill> [inputs…] [--<arg> <value>]…\trun a skill on the cheap model
  zhi run <skill> <folder> [folder options]\trun a skill on every file of a folder
  zhi batch list | status <id> | results <id> | cancel <id>\tBatch API jobs (half price, results within a day)
  zhi schedule add "<when>" <skill> <inputs…> [--name n] [--auto] [--max-cost x]\trun a skill on a schedule ("weekdays 18:30", "每天 9:00")
  zhi schedule list | show | run | logs | pause | resume | remove | confirm <name>
  zhi watch <folder> <skill> [folder options]	run a skill on each file that arrives in a folder
  zhi skill list | show <name> | new | edit <name> | delete <name> | trust <name>
            | export <name> | import <file|url>
  zhi config show | path | get <key> | set <key> <value> | reset | allow …
  zhi sessions [text] | sessions export <id> | sessions delete <id>
  zhi --resume [id] | zhi --continue\tresume a saved conversation
  zhi usage [--since 7d] [--by model|skill|day]
  zhi models\tthe GLM models, their prices, what your account offers
  zhi mcp list | add | remove | test | import | login\tMCP servers whose tools zhi may use
  zhi doctor\tcheck Node, the key, network, config, MCP servers, readers, sandbox
  zhi web [--no-open] [--port n]\tzhi in your browser: a page on this computer only
  zhi serve [--port n]\tthe same local server without opening a page (for scripts)
  zhi completion bash|zsh|fish|powershell\tprint the shell's completion script
  zhi --setup\trun the setup wizard

Options:
  --model <id>\tmodel for this run (default: glm-5 for chat)
  --auto\tcreate new files without asking (commands still ask)
  --output-dir <dir>\twhere files are written (default: zhi-output)
  --output-format <f>\ttext | json | stream-json
  --language <l>\tauto | en | zh
  --no-color\tplain text, no colours
  --debug\tshow details and stack traces on stderr
  -v, -vv\tmore detail on stderr
  -y, --yes\tanswer yes to confirmations (a cost over the limit, delete, import)
  --version, --help

Folder options (zhi run <skill> <folder>):
  --recursive\tinclude files in subfolders
  --include <pattern>\tonly files matching, e.g. --include "*.pdf" (may repeat)
  --exclude <pattern>\tleave out files matching (may repeat)
  --jobs <n>\tfiles processed at once (default 4, at most 64)
  --dry-run\tlist the files with estimated tokens and price; send nothing
  --batch\tsend through the Batch API (half price; collect with zhi batch results)
  --force\tprocess again files already done in an earlier run

Environment: ZHI_API_KEY, ZHI_BASE_URL, ZHI_HOME, ZHI_LANGUAGE, ZHI_DEFAULT_MODEL,
ZHI_SKILL_MODEL, ZHI_OUTPUT_DIR, NO_COLOR, HTTPS_PROXY/HTTP_PROXY/NO_PROXY.
Exit codes: 0 ok · 1 failure · 2 usage · 3 configuration/auth · 4 turn limit · 130 interrupted.`,
    'cli.thinking': 'Thinking…',
    'cli.writingToolCall': 'Writing the tool call…',
    'cli.retrying': 'The API said: {reason}. Retrying in {seconds}s ({attempt}/{max})…',
    'cli.lengthCut': 'The answer was cut off at the output limit of the model.',
    'cli.notTty': 'zhi needs an API key and cannot ask for one here (stdin is not a terminal).',
    'cli.stdinAttached': 'stdin',
  },
  {
    'cli.error': '错误',
    'cli.warning': '警告',
    'cli.reason': '原因',
    'cli.try': '可以尝试',
    'cli.errorLabel': '错误：',
    'cli.reasonLabel': '原因：',
    'cli.tryLabel': '可以尝试：',
    'cli.label': '{label}：',
    'cli.tag.error': '【错误】',
    'cli.tag.warn': '【注意】',
    // The closing line already begins with 完成：
    'cli.tag.done': '{line}',
    'cli.tag.tool': '【工具】',
    'cli.interrupted': '已中断。',
    'cli.err.unexpected': 'zhi 内部出现了问题。',
    'cli.why.said': '{by}给出的原话：“{said}”',
    'cli.by.platform': '平台',
    'cli.by.system': '系统',
    'cli.by.program': '程序',
    'cli.why.forModel': '具体原因是写给模型看的英文说明；用 `zhi --debug` 可以看到，它也记录在 zhi.log 中。',
    'cli.err.diskFull': '磁盘已满：zhi 无法保存文件。',
    'cli.err.permission': 'zhi 没有权限访问所需的文件。',
    'cli.outputDir.bad': 'zhi 无法在 --output-dir 指定的文件夹中写入文件：{dir}',
    'cli.outputDir.notFolder': '{path} 是一个文件，不是文件夹。',
    'cli.outputDir.readOnly': '它在只读的文件系统上。',
    'cli.outputDir.permission': '你没有在那里写入的权限。',
    'cli.outputDir.cannotMake': '系统不允许在那里创建文件夹（{code}）。',
    'cli.outputDir.try': '请给 --output-dir 一个你可以写入的文件夹，例如 --output-dir ./out。',
    'cli.try.freeSpace': '清理一些磁盘空间后重新运行命令。',
    'cli.try.permissions': '检查上面提到的文件或文件夹的权限。',
    'cli.try.debug': '加上 --debug 重新运行查看详情；如果反复出现，请报告此问题。',
    'cli.err.unknownFlag': '未知选项：{flag}',
    'cli.err.missingValue': '选项 {flag} 需要一个值。',
    'cli.err.badValue': '选项 {flag} 不接受“{value}”。',
    'cli.err.badValueWhy': '可用的值：{allowed}。',
    'cli.err.unknownCommand': '未知命令：{name}',
    'cli.err.emptyMessage': '没有可发送的消息。',
    'cli.err.emptyMessageWhy': '-c 的消息为空，标准输入也没有内容。',
    'cli.err.emptyStdinWhy': '从标准输入传入的文本是空的（或只有空格）。',
    'cli.try.pipeText': '传入一些文本，例如 `echo "你的问题" | zhi`，或一个文件：`zhi < notes.txt`。',
    'cli.try.help': '运行 `zhi --help` 查看命令和选项。',
    'cli.completion.usage': '用法：zhi completion bash | zsh | fish | powershell',
    'update.notice':
      'zhi {latest} 已发布（你的版本是 {current}）。{how}（不想看到此提示：zhi config set update_check false。）',
    'update.howNpm': '更新方法：npm install -g zhi@latest',
    'update.howExe': '从发布页面下载新的可执行文件，替换 {path}。',
    'update.howSource': '更新这个源码目录：git pull、npm ci、npm run build。',
    'cli.completion.try':
      '运行 zhi completion bash > ~/.local/share/bash-completion/completions/zhi（README 中写了每种 shell 的安装方法）。',
    'cli.try.didYouMean': '你是不是想输入 `{suggestion}`？',
    'cli.try.quote': '要提问，请用 `zhi -c "你的问题"`（消息要加引号）。',
    'cli.help': `zhi {version} — 智谱 GLM 模型的终端助手

用法：
  zhi\t对话（标准输入为管道时，从中读取消息）
  zhi -c, --command "<消息>"\t单次提问；管道输入会作为文档附上
  zhi run <技能> [输入…] [--<参数> <值>]…\t用低成本模型运行技能
  zhi run <技能> <文件夹> [文件夹选项]\t对文件夹中的每个文件运行技能
  zhi batch list | status <id> | results <id> | cancel <id>\t批处理 API 任务（半价，一天内返回结果）
  zhi schedule add "<时间>" <技能> <输入…> [--name 名称] [--auto] [--max-cost 金额]\t定时运行技能（"每天 9:00"、"工作日 18:30"）
  zhi schedule list | show | run | logs | pause | resume | remove | confirm <名称>
  zhi watch <文件夹> <技能> [文件夹选项]	每有文件送达文件夹就用技能处理它
  zhi skill list | show <名称> | new | edit <名称> | delete <名称> | trust <名称>
            | export <名称> | import <文件|网址>
  zhi config show | path | get <键> | set <键> <值> | reset | allow …
  zhi sessions [文字] | sessions export <id> | sessions delete <id>
  zhi --resume [id] | zhi --continue\t继续一段保存的对话
  zhi usage [--since 7d] [--by model|skill|day]
  zhi models\tGLM 模型、价格，以及你的账户可用的模型
  zhi mcp list | add | remove | test | import | login\tzhi 可以使用其工具的 MCP 服务器
  zhi doctor\t检查 Node、密钥、网络、配置、MCP 服务器、文档读取和沙盒
  zhi web [--no-open] [--port n]\t在浏览器中使用 zhi：页面仅限这台电脑
  zhi serve [--port n]\t同一个本地服务，但不打开页面（供脚本使用）
  zhi completion bash|zsh|fish|powershell\t输出 shell 的补全脚本
  zhi --setup\t运行设置向导

选项：
  --model <id>\t本次使用的模型（对话默认 glm-5）
  --auto\t直接创建新文件而不询问（命令仍会询问）
  --output-dir <目录>\t文件写入位置（默认 zhi-output）
  --output-format <格式>\ttext | json | stream-json
  --language <语言>\tauto | en | zh
  --no-color\t纯文本，不用颜色
  --debug\t在标准错误输出中显示详情和堆栈
  -v, -vv\t在标准错误输出中显示更多细节
  -y, --yes\t对确认问题回答“是”（超出上限的费用、删除、导入）
  --version, --help

文件夹选项（zhi run <技能> <文件夹>）：
  --recursive\t包括子文件夹中的文件
  --include <模式>\t只处理匹配的文件，例如 --include "*.pdf"（可重复）
  --exclude <模式>\t排除匹配的文件（可重复）
  --jobs <数量>\t同时处理的文件数（默认 4，最多 64）
  --dry-run\t列出文件及预估的 token 和价格，不发送任何请求
  --batch\t通过批处理 API 发送（半价；用 zhi batch results 取回）
  --force\t重新处理之前已完成的文件

环境变量：ZHI_API_KEY、ZHI_BASE_URL、ZHI_HOME、ZHI_LANGUAGE、ZHI_DEFAULT_MODEL、
ZHI_SKILL_MODEL、ZHI_OUTPUT_DIR、NO_COLOR、HTTPS_PROXY/HTTP_PROXY/NO_PROXY。
退出码：0 成功 · 1 失败 · 2 用法错误 · 3 配置/认证错误 · 4 达到轮次上限 · 130 已中断。`,
    'cli.thinking': '思考中…',
    'cli.writingToolCall': '正在写工具调用…',
    'cli.retrying': 'API 返回：{reason}。{seconds} 秒后重试（{attempt}/{max}）…',
    'cli.lengthCut': '回答达到模型的输出上限，被截断了。',
    'cli.notTty': 'zhi 需要 API 密钥，但这里无法询问（标准输入不是终端）。',
    'cli.stdinAttached': '标准输入',
  },
);
