/**
 * The one rule for zhi's paid platform readers (GLM-ASR speech recognition, Zhipu's file
 * parser): the price is shown before anything is sent; `--yes` or `--auto` agree in advance
 * (the price line is still printed); otherwise the person is asked, and with no terminal to ask
 * nothing is sent and the error names --yes.
 */
import type { Prompter } from '../agent/loop.js';
import { formatCost } from '../llm/models.js';
import { ZhiError } from '../support/errors.js';
import { t } from '../support/i18n/index.js';
import { visible } from '../support/sanitize.js';
import type { AudioEstimate } from '../tools/asr/transcribe.js';
import { formatDuration } from '../tools/asr/transcribe.js';
import type { ParseEstimate } from '../tools/files/platform-parse.js';

export interface ConsentOptions {
  /** Who is asked: an agent's prompter, or a yes/no of the REPL's attachments (cli/repl/attach/env.ts). */
  prompter: Pick<Prompter, 'interactive' | 'ask'>;
  write(text: string): void;
  signal: AbortSignal;
  /** --yes or --auto. */
  agreed: boolean;
}

export async function agreeToPrice(line: string, o: ConsentOptions): Promise<boolean> {
  if (o.agreed) {
    o.write(`${line}${t('price.agreed')}`);
    return true;
  }
  if (!o.prompter.interactive) {
    throw new ZhiError({
      kind: 'budget',
      what: { key: 'price.unasked', params: { line } },
      why: { key: 'price.noTerminal' },
      tries: [{ key: 'price.try.yes' }],
    });
  }
  return o.prompter.ask({ message: `${line}${t('price.ask')}` }, o.signal);
}

/** `rec.m4a: 12:30 of audio, 27 request(s) to GLM-ASR, about ¥0.75.` */
export function audioPriceLine(e: AudioEstimate): string {
  const common = { file: visible(e.file), duration: formatDuration(e.seconds), pieces: e.pieces };
  return e.cost ? t('asr.price', { ...common, cost: formatCost(e.cost) }) : t('asr.priceUnknown', common);
}

/** `sales.xls: cannot be read here without LibreOffice; Zhipu's file parser: about 3 pages, ≈¥0.36.` */
export function parsePriceLine(e: ParseEstimate): string {
  const common = { file: visible(e.file), pages: e.pages };
  return e.cost
    ? t('parser.price', { ...common, cost: formatCost(e.cost) })
    : t('parser.priceUnknown', common);
}
