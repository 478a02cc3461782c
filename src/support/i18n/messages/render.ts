import { defineMessages } from '../define.js';

export const render = defineMessages(
  {
    'render.doneLine': 'Done: {parts}',
    'render.files': '{read} files read, {written} written',
    'render.tools': '{n} tools',
    'render.tool': '{n} tool',
    'render.fileRead': '{read} file read, {written} written',
    'render.tokens': '{n} tokens',
    'render.covered': 'covered by plan',
    'render.denied': '{name} was not run: {reason}',
    'render.deniedByUser': '{name} was not run (you said no).',
    'render.deniedNoTerminal':
      '{name} was not run: it needs your confirmation and there is no terminal to ask (stdin is not a terminal). For new files, --auto allows file_write; shell never runs unattended.',
    'render.refused': '{name} was refused: {reason}',
    'render.stopped': 'Stopped.',
  },
  {
    'render.doneLine': '完成：{parts}',
    'render.files': '读取 {read} 个文件，写入 {written} 个',
    'render.tools': '{n} 次工具调用',
    'render.tool': '{n} 次工具调用',
    'render.fileRead': '读取 {read} 个文件，写入 {written} 个',
    'render.tokens': '{n} tokens',
    'render.covered': '已包含在套餐内',
    'render.denied': '{name} 未运行：{reason}',
    'render.deniedByUser': '{name} 未运行（你选择了否）。',
    'render.deniedNoTerminal':
      '{name} 未运行：它需要你确认，但这里没有终端可以询问（标准输入不是终端）。创建新文件可使用 --auto 允许 file_write；shell 永远不会在无人确认时运行。',
    'render.refused': '{name} 被拒绝：{reason}',
    'render.stopped': '已停止。',
  },
);
