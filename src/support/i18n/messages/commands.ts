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
  },
);
