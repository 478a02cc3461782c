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
    'agent.tool.egressNoTerminal':
      "Denied: this call would send data off this computer ({what}), which needs the user's yes in every mode, and no one can be asked here (stdin is not a terminal). Nothing was sent. Do not try another address, encoding or tool to send it; tell the user what you wanted to send, and where, so they can do it themselves.",
    'agent.tool.denied': 'The user declined this tool call. Ask them how to continue, or do without it.',
    'agent.tool.interrupted': 'Interrupted by the user before this tool finished.',
    'agent.tool.threw': 'The tool {name} failed: {message}',
    'agent.tool.cutOff':
      'Not run: your reply reached the output limit while you were writing the tool calls, so their arguments may be incomplete. None of the calls in that reply ran. Call again with shorter arguments (write a long file in several parts, or ask for less at a time).',
    'agent.priceStep':
      'This request is about {tokens} tokens, past the {step}-token price step of {model}: input now costs {price} per million tokens instead of {base}. /compact shrinks the conversation; /reset starts a new one.',
    'agent.priceStep.now':
      'Price step: {model} with this conversation (≈ {tokens} tokens): input {price} per million tokens, {where}.',
    'agent.priceStep.next': '{price} once a request passes {step} tokens',
    'agent.priceStep.above': 'the price above {step} tokens',
    'agent.cutOffCalls':
      'The model reached its output limit while writing {n} tool call(s); they were not run, and the model was asked to try again with less at a time.',
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
    'agent.tool.egressNoTerminal':
      '已拒绝：这次调用会把数据（{what}）发送到这台电脑之外，这在任何模式下都需要用户同意，但这里无法询问（标准输入不是终端）。没有发送任何内容。',
    'agent.tool.denied': '用户拒绝了这次工具调用。',
    'agent.tool.interrupted': '工具完成前被用户中断。',
    'agent.tool.threw': '工具 {name} 出错：{message}',
    'agent.tool.cutOff': '未运行：回复达到输出上限，工具调用的参数可能不完整。',
    'agent.priceStep':
      '本次请求约 {tokens} token，已超过 {model} 的 {step} token 计价档：输入价格由每百万 token {base} 变为 {price}。/compact 可压缩对话，/reset 可开始新对话。',
    'agent.priceStep.now': '计价档：{model}，当前对话约 {tokens} token：输入每百万 token {price}，{where}。',
    'agent.priceStep.next': '单次请求超过 {step} token 后为 {price}',
    'agent.priceStep.above': '这是超过 {step} token 的价格',
    'agent.cutOffCalls':
      '模型在写 {n} 个工具调用时达到了输出上限；这些调用没有运行，已请模型分几次、每次少写一些重试。',
  },
);
