/**
 * Idle-time warm-up of what the first message needs and Node loads or compiles lazily: marked's
 * rules, made-up messages sent through the real send path to a twin of the chat (warm-send.ts)
 * and answered by a server of our own on 127.0.0.1 (warm-api.ts: nothing leaves the machine, the
 * API sees nothing), and the line editor. Failures are ignored: the first message then pays, as it
 * would have.
 */
import type { ChatSession } from '../../agent/chat.js';
import { estimateToolsTokens } from '../../agent/tokens.js';
import { connectPlatform } from '../../llm/connect.js';
import { prepareApiFetch } from '../../llm/http.js';
import type { AppContext } from '../context.js';
import { answerFrames, warmApi } from './warm-api.js';
import { warmSend } from './warm-send.js';

export async function warmMarkdown(): Promise<void> {
  // The first Date of a process reads the time zone (about 10 ms): sessions stamp every line.
  void new Date().toISOString();
  void new Date().toString();
  const { lexer } = await import('marked');
  lexer('# a\n\n**b** `c` [d](e)\n\n- f\n\n| g |\n|---|\n| h |\n\n```js\nx\n```\n');
}

/**
 * Three made-up messages, each the first of a conversation of its own, sent as the person's will
 * be (warm-send.ts) to a server of our own (warm-api.ts): the first real message then runs code
 * that ran, and was optimised, already — a message's code run once costs several times what it
 * costs the third time, and a chat's first message takes paths later ones do not (the session
 * file is opened, titled and noted in the index). Their messages, usage, session files, ledger
 * and history are their own, in a temporary folder removed at once: the chat's conversation,
 * session file, budget and compaction never see them. Stops between messages once the person has
 * sent something (`stopped`): their message then pays for the rest, as it would have.
 */
export async function warmTurn(ctx: AppContext, chat: ChatSession, stopped: () => boolean): Promise<void> {
  // With a proxy in the environment the API's fetch is undici's, with a proxy agent: made now.
  await prepareApiFetch();
  const api = await warmApi(answerFrames());
  try {
    const llm = connectPlatform({ baseUrl: api.baseUrl, apiKey: 'warm-up', maxRetries: 0, fetch: api.fetch });
    await warmSend(ctx, { chat, llm, texts: WARM_MESSAGES, stopped });
  } finally {
    api.close();
  }
  // The first call weighs the whole context and the tool schemas (later ones start from the last
  // call's usage): the chat's own compactor weighs them now, and keeps the tools' weight.
  chat.session?.compactor.status(chat.messages);
  // The person's session file: its header made now, written with the first message. (The
  // history's and session file's secret checks ran already, in Latin and Chinese, for the twins.)
  chat.session?.recorder.prepare();
}

/**
 * What the made-up messages say: Latin and Chinese text take different paths. Three, because the
 * first real message measured 1.5× a later one after one made-up message, 1.3× after two and
 * 1.2× after three (a fourth changed nothing).
 */
const WARM_MESSAGES = ['Hi! What can you do?', '你好，请介绍一下你自己。', 'Thanks!'];

/** The chat's tool schemas, converted from zod once and weighed before every call: do it now. */
export function warmChat(chat: ChatSession): void {
  estimateToolsTokens(chat.deps.tools.schemas());
}
