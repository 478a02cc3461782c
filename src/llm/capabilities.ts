/**
 * What zhi learned about models outside its registry (today: that a model refuses `thinking:
 * disabled`). One `LearnedCapabilities` is made per run at start (`makeClient`) from the JSON
 * file in the data folder and given to the client, which applies it to the registry's facts and
 * adds to it; the lesson is saved so it is learned once, not on every start. A missing or
 * unreadable file is simply an empty cache.
 */
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../support/atomic.js';
import { log } from '../support/log.js';
import type { ModelInfo } from './model-types.js';

/** The facts a reply can teach about a model. */
export type LearnedFacts = Partial<Pick<ModelInfo, 'thinkingForced'>>;

export class LearnedCapabilities {
  private readonly byModel = new Map<string, LearnedFacts>();

  /** `file`: where lessons are kept (none: remembered for this run only, as in tests). */
  constructor(private readonly file?: string) {}

  /** The cache kept in `path`. */
  static load(path: string): LearnedCapabilities {
    const caps = new LearnedCapabilities(path);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return caps;
    }
    try {
      const data = JSON.parse(text) as Record<string, { thinkingForced?: unknown }>;
      for (const [model, facts] of Object.entries(data)) {
        if (facts && facts.thinkingForced === true)
          caps.byModel.set(model.toLowerCase(), { thinkingForced: true });
      }
    } catch {
      log().warn('ignoring an unreadable model capability cache', { path });
    }
    return caps;
  }

  /** What was learned about a model (its id in any case), if anything. */
  of(id: string): LearnedFacts | undefined {
    return this.byModel.get(id.toLowerCase());
  }

  /** Record a lesson (a 1210 "always thinks" reply) and keep it in the file. */
  async learn(id: string, facts: LearnedFacts): Promise<void> {
    const key = id.toLowerCase();
    this.byModel.set(key, { ...this.byModel.get(key), ...facts });
    if (!this.file) return;
    try {
      await writeFileAtomic(
        this.file,
        `${JSON.stringify(Object.fromEntries(this.byModel), null, 2)}\n`,
        0o600,
      );
    } catch (err) {
      log().warn('could not save the model capability cache', { path: this.file, error: String(err) });
    }
  }
}
