import { defineMessages } from '../define.js';

// Custom slash commands from Markdown files, and hooks from config.yaml.
export const commands = defineMessages(
  {
    'commands.unknown': 'There is no command /{name}.',
    'commands.unknownWhy':
      'zhi looks for command files in {project} (this folder) and {user} (yours); neither has {name}.md.',
    'commands.tryCreate': 'Create {file} with the prompt to send, or check the name.',
    'commands.tryNearest': 'Did you mean /{suggestion}?',
    'commands.chatOnly':
      '/{name} is a chat command: it works at the zhi prompt, not in zhi -c. In zhi -c, /<name> runs a command file.',
    'commands.tryChat': 'Start zhi and type /{name} there.',
    'commands.bad': 'The command file {file} was not used: {problem}.',
    'commands.bad.bad_name': 'a command name has only letters, digits, - and _',
    'commands.bad.bad_front_matter': 'its front matter (between the --- lines at the top) is not valid YAML',
    'commands.bad.empty': 'it has no prompt after its front matter',
    'commands.bad.unreadable': 'it could not be read as text (or is larger than 64 KB)',
    'commands.badTry': 'Fix the file; zhi reads it again each time.',
    'commands.shadowed':
      '{file} is not used: /{name} is a built-in command, and built-in commands always win. Rename the file to use it.',
    'commands.help': 'Commands from files:',
    'commands.trustHeader':
      'First use of the project command /{name} ({file}), written by this folder, not by you:',
    'commands.trustQuestion': 'Send this prompt? zhi asks again if the file changes.',
    'commands.declined': 'Not sent: you did not trust the project command /{name}.',
    'commands.noTerminal': 'The project command /{name} was not sent: it comes from {file}, in this folder.',
    'commands.noTerminalWhy':
      'A project command is text from the repository; its first use needs your yes, and no one can be asked here (stdin is not a terminal).',
    'commands.tryTerminal': 'Run zhi in a terminal once, type /{name}, read the prompt and answer yes.',
    'commands.model': 'model: {model}',
    'commands.fromFile': 'A command from a file.',
    'commands.fromFileAt': 'Sends the prompt in {file}.',
    'hooks.bad': 'A hook in {file} was left out ({where}): {problem}. The other hooks run.',
    'hooks.bad.not_map':
      'hooks: must list events (before_tool, after_tool, after_turn, session_start, session_end), each with its commands',
    'hooks.bad.unknown_event':
      'there is no event of that name; the events are before_tool, after_tool, after_turn, session_start and session_end',
    'hooks.bad.not_list': 'an event takes a list of hooks (- command: …)',
    'hooks.bad.no_command': 'a hook needs command: (the command to run)',
    'hooks.bad.bad_match': 'match: is a tool name or a list of tool names',
    'hooks.bad.bad_timeout': 'timeout: is a number of seconds, above 0 and at most 600',
    'hooks.where': 'hooks',
    'hooks.blocked': 'Your {event} hook stopped {name}. The hook said: {reason}',
    'hooks.noReason': '(it gave no reason)',
    'hooks.failed':
      'Your {event} hook `{command}` failed (exit {code}){detail}; zhi went on as if it were not there.',
    'hooks.timedOut':
      'Your {event} hook `{command}` took longer than {seconds} s and was stopped; zhi went on as if it were not there. Give it longer with timeout: in config.yaml.',
    'hooks.notStarted':
      'Your {event} hook `{command}` could not start ({reason}); zhi went on as if it were not there.',
  },
  {
    'commands.unknown': '没有 /{name} 这个命令。',
    'commands.unknownWhy':
      'zhi 会在 {project}（当前文件夹）和 {user}（你自己的）中查找命令文件，两处都没有 {name}.md。',
    'commands.tryCreate': '新建 {file}，写入要发送的提示；或检查命令名是否拼错。',
    'commands.tryNearest': '你是想用 /{suggestion} 吗？',
    'commands.chatOnly':
      '/{name} 是对话中的命令：在 zhi 提示符下可用，在 zhi -c 中不可用。zhi -c 中的 /<名称> 会运行命令文件。',
    'commands.tryChat': '启动 zhi，在提示符下输入 /{name}。',
    'commands.bad': '命令文件 {file} 未被使用：{problem}。',
    'commands.bad.bad_name': '命令名只能包含字母、数字、- 和 _',
    'commands.bad.bad_front_matter': '文件开头 --- 之间的元数据不是有效的 YAML',
    'commands.bad.empty': '元数据之后没有提示内容',
    'commands.bad.unreadable': '无法作为文本读取（或超过 64 KB）',
    'commands.badTry': '修改该文件即可；zhi 每次都会重新读取。',
    'commands.shadowed': '{file} 未被使用：/{name} 是内置命令，内置命令优先。重命名该文件即可使用。',
    'commands.help': '来自文件的命令：',
    'commands.trustHeader': '首次使用项目命令 /{name}（{file}），它来自当前文件夹，不是你写的：',
    'commands.trustQuestion': '发送这段提示吗？文件改动后 zhi 会再次询问。',
    'commands.declined': '未发送：你没有信任项目命令 /{name}。',
    'commands.noTerminal': '项目命令 /{name} 未发送：它来自当前文件夹中的 {file}。',
    'commands.noTerminalWhy':
      '项目命令是仓库中的文本，首次使用需要你确认，而这里无法询问（标准输入不是终端）。',
    'commands.tryTerminal': '在终端中运行一次 zhi，输入 /{name}，阅读提示内容后回答 yes。',
    'commands.model': '模型：{model}',
    'commands.fromFile': '来自文件的命令。',
    'commands.fromFileAt': '发送 {file} 中的提示。',
    'hooks.bad': '{file} 中的一个钩子（{where}）未被使用：{problem}。其他钩子照常运行。',
    'hooks.bad.not_map':
      'hooks: 下应按事件（before_tool、after_tool、after_turn、session_start、session_end）列出各自的命令',
    'hooks.bad.unknown_event':
      '没有这个事件；可用的事件是 before_tool、after_tool、after_turn、session_start 和 session_end',
    'hooks.bad.not_list': '每个事件下应是钩子列表（- command: …）',
    'hooks.bad.no_command': '钩子需要 command:（要运行的命令）',
    'hooks.bad.bad_match': 'match: 应是一个工具名或工具名列表',
    'hooks.bad.bad_timeout': 'timeout: 应是秒数，大于 0 且不超过 600',
    'hooks.where': '钩子',
    'hooks.blocked': '你的 {event} 钩子阻止了 {name}。钩子的原话：{reason}',
    'hooks.noReason': '（它没有给出原因）',
    'hooks.failed': '你的 {event} 钩子 `{command}` 运行失败（退出码 {code}）{detail}；zhi 已当它不存在继续。',
    'hooks.timedOut':
      '你的 {event} 钩子 `{command}` 超过 {seconds} 秒未结束，已被停止；zhi 已当它不存在继续。可在 config.yaml 中用 timeout: 给它更长时间。',
    'hooks.notStarted': '你的 {event} 钩子 `{command}` 无法启动（{reason}）；zhi 已当它不存在继续。',
  },
);
