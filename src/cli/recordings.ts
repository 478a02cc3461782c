/**
 * Recordings named in a one-shot message (`zhi -c "summarise @rec.mp3"`): each is transcribed by
 * GLM-ASR and its transcript attached to the message, as the REPL attaches one. The price follows
 * the one rule of price-consent.ts — `--yes` or `--auto` agree in advance, a terminal asks, and with
 * no terminal nothing is sent and the error names `--yes` — so a script never pays unasked. A
 * recording that cannot be read is said on stderr and the message does not go: the question was
 * about it, and an answer without it would be paid for nothing. Only the person's own words are
 * searched (not a document piped in after them).
 */
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { ChatSession } from '../agent/chat.js';
import type { Cost } from '../llm/models.js';
import type { Platform } from '../llm/platforms.js';
import type { PlatformClient } from '../llm/types.js';
import { ZERO_USAGE } from '../llm/types.js';
import { ZhiError } from '../support/errors.js';
import { t } from '../support/i18n/index.js';
import { visible } from '../support/sanitize.js';
import { AUDIO_EXT, isAudioPath } from '../tools/asr/audio.js';
import { ToolError } from '../tools/types.js';
import { agreeToPrice, audioPriceLine, type ConsentOptions } from './price-consent.js';
import { documentBlock } from './repl/attach/attach.js';
import { detectPaths } from './repl/attach/paths.js';

/** Only the start of a long message is searched (a pasted document is not a list of files). */
const SCAN_CHARS = 4000;
const AUDIO_WORD = new RegExp(`\\.(${AUDIO_EXT.join('|')})\\b`, 'i');

export interface RecordingOptions {
  cwd: string;
  home: string;
  client: PlatformClient | undefined;
  platform: Platform;
  chat: ChatSession;
  consent: ConsentOptions;
  /** One informational line for the person (stderr). */
  note(line: string): void;
}

/** The message with the transcripts of the recordings it names appended; the text as is when none. */
export async function withMentionedRecordings(text: string, o: RecordingOptions): Promise<string> {
  const words = (text.split('\n\n<document name="')[0] ?? '').slice(0, SCAN_CHARS);
  if (!AUDIO_WORD.test(words)) return text;
  const isFile = (p: string) => statSync(p).isFile();
  const found = detectPaths(words, { cwd: o.cwd, home: o.home, isFile }).filter((m) => isAudioPath(m.path));
  if (!found.length) return text;
  const blocks: string[] = [];
  for (const m of found) {
    const name = basename(m.path);
    if (!o.client)
      throw new ZhiError({
        kind: 'config',
        what: { key: 'asr.err.noClient', params: { path: visible(name) } },
      });
    const got = await transcribed(m.path, name, o);
    blocks.push(documentBlock(name, m.path, got.text));
  }
  return `${text}\n\n${blocks.join('\n\n')}`;
}

async function transcribed(path: string, name: string, o: RecordingOptions): Promise<{ text: string }> {
  const { transcribeFile, transcribeFailure, formatDuration } = await import('../tools/asr/transcribe.js');
  try {
    const got = await transcribeFile(o.client!, path, {
      display: name,
      platform: o.platform,
      signal: o.consent.signal,
      consent: (estimate) => agreeToPrice(audioPriceLine(estimate), o.consent),
      onPiece: (index, total) => {
        if (total > 1) o.note(t('asr.progress', { index, total }));
      },
    });
    counted(o.chat, got.model, got.cost, o.platform);
    o.note(t('repl.attach.asrYes', { name: visible(name), duration: formatDuration(got.seconds) }));
    return got;
  } catch (err) {
    if (err instanceof ToolError) throw transcribeFailure(err, visible(name));
    throw err;
  }
}

/** A paid read's priced cost, counted in the session's usage and recorded by the chat's consumers. */
function counted(chat: ChatSession, model: string, cost: Cost | undefined, platform: Platform): void {
  const priced = cost ?? {
    amount: 0,
    currency: platform.currency,
    covered: platform.coveredByPlan,
    approx: true,
  };
  chat.consume({
    type: 'usage',
    model,
    usage: { ...ZERO_USAGE },
    cost: chat.deps.usage.addPriced(model, priced),
  });
}
