import { defineMessages } from '../define.js';

export const render = defineMessages(
  {
    'render.doneLine': 'Done: {parts}',
    'render.filesMore': '… and {count} more files',
    'render.files': '{read} files read, {written} written',
    'render.tools': '{n} tools',
    'render.tool': '{n} tool',
    'render.fileRead': '{read} file read, {written} written',
    'render.tokens': '{n} tokens',
    'render.covered': 'covered by plan',
    'render.denied': 'Not run ({name}): {reason}',
    'render.deniedByUser': 'Not run ({name}): you said no.',
    'render.deniedNoTerminal':
      'Not run ({name}): it needs your confirmation and there is no terminal to ask (stdin is not a terminal). For new files, --auto allows writing them; a command or an MCP tool runs unattended only when an allow: rule in config.yaml covers it (zhi config allow add …).',
    'render.refused': 'Refused ({name}): {reason}',
    'render.stopped': 'Stopped.',
  },
  {
    'render.doneLine': '完成：{parts}',
    'render.filesMore': '……还有 {count} 个文件',
    'render.files': '读取 {read} 个文件，写入 {written} 个',
    'render.tools': '{n} 次工具调用',
    'render.tool': '{n} 次工具调用',
    'render.fileRead': '读取 {read} 个文件，写入 {written} 个',
    'render.tokens': '{n} tokens',
    'render.covered': '已包含在套餐内',
    'render.denied': '未运行（{name}）：{reason}',
    'render.deniedByUser': '未运行（{name}）：你选择了否。',
    'render.deniedNoTerminal':
      '未运行（{name}）：它需要你确认，但这里没有终端可以询问（标准输入不是终端）。创建新文件可使用 --auto 允许写入；命令或 MCP 工具只有在 config.yaml 的 allow: 规则涵盖时才会无人确认地运行（zhi config allow add …）。',
    'render.refused': '已拒绝（{name}）：{reason}',
    'render.stopped': '已停止。',
  },
);
