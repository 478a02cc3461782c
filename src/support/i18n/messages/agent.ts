import { defineMessages } from '../define.js';

// Tool-result texts (agent.tool.*) are read by the model, and always rendered in English.
export const agent = defineMessages(
  {
    'agent.turnLimit.what': 'Stopped after {turns} turns without a final answer.',
    'agent.turnLimit.try':
      'Break the task into smaller steps, or raise max_turns with `zhi config set max_turns <n>`.',
    'agent.tool.unknown': 'There is no tool called "{name}". Available tools: {available}.',
    'agent.tool.badJson':
      'The arguments for {name} are not valid JSON ({detail}). Send the arguments as one JSON object that matches the tool schema.',
    'agent.tool.badArgs':
      'The arguments for {name} do not match its schema: {problems}. Fix them and call the tool again.',
    'agent.tool.refused': 'Refused: {reason}. This cannot be confirmed; do not try it another way.',
    'agent.tool.noTerminal':
      'Denied: this needs a person to confirm, and no one can be asked here (stdin is not a terminal). Tell the user what you wanted to do.',
    'agent.tool.egressSecret':
      '{name} would send a secret (an API key, token, password or private key) off this computer; secrets never leave it',
    'agent.tool.siteNoTerminal':
      "Denied: fetching {url} needs the user's approval, and no one can be asked here (stdin is not a terminal). Without a terminal only addresses the user typed are fetched. Do not try another address; tell the user which page you wanted, so they can give it themselves or run with --auto.",
    'agent.tool.denied': 'The user declined this tool call. Ask them how to continue, or do without it.',
    'agent.tool.interrupted': 'Interrupted by the user before this tool finished.',
    'agent.tool.threw': 'The tool {name} failed: {message}',
  },
  {
    'agent.turnLimit.what': '已进行 {turns} 轮，仍未得到最终回答，已停止。',
    'agent.turnLimit.try': '把任务拆成更小的步骤，或用 `zhi config set max_turns <n>` 提高轮次上限。',
    'agent.tool.unknown': '没有名为“{name}”的工具。可用的工具：{available}。',
    'agent.tool.badJson': '{name} 的参数不是有效的 JSON（{detail}）。',
    'agent.tool.badArgs': '{name} 的参数不符合要求：{problems}。',
    'agent.tool.refused': '已拒绝：{reason}。',
    'agent.tool.noTerminal': '已拒绝：此操作需要人工确认，但这里无法询问（标准输入不是终端）。',
    'agent.tool.egressSecret':
      '{name} 会把机密信息（API 密钥、令牌、密码或私钥）发送到这台电脑之外；机密信息绝不离开这台电脑',
    'agent.tool.siteNoTerminal': '已拒绝：获取 {url} 需要用户批准，但这里无法询问（标准输入不是终端）。',
    'agent.tool.denied': '用户拒绝了这次工具调用。',
    'agent.tool.interrupted': '工具完成前被用户中断。',
    'agent.tool.threw': '工具 {name} 出错：{message}',
  },
);
