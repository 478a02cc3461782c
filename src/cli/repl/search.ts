import type { Key } from 'node:readline';

/**
 * Ctrl+R reverse incremental search over the history (newest first), as in bash: typing narrows
 * the query, Ctrl+R again finds the next older match, a failed search keeps the last match.
 */
export class ReverseSearch {
  query = '';
  failed = false;
  private index = -1;

  constructor(
    private readonly entries: readonly string[],
    readonly original: string,
  ) {}

  /** The entry shown: the current match, or the original line before any match. */
  get match(): string {
    return this.index >= 0 ? this.entries[this.index]! : this.original;
  }

  type(text: string): void {
    this.query += text;
    this.find(Math.max(this.index, 0));
  }

  backspace(): void {
    this.query = [...this.query].slice(0, -1).join('');
    this.index = -1;
    this.failed = false;
    if (this.query) this.find(0);
  }

  /** The next older match (Ctrl+R again). */
  next(): void {
    if (!this.query) return;
    this.find(this.index + 1);
  }

  private find(from: number): void {
    const q = this.query.toLowerCase();
    for (let i = from; i < this.entries.length; i++) {
      if (this.entries[i]!.toLowerCase().includes(q)) {
        this.index = i;
        this.failed = false;
        return;
      }
    }
    this.failed = true;
  }

  /** Where the cursor goes in the match: at the start of the query text. */
  cursor(): number {
    const at = this.match.toLowerCase().indexOf(this.query.toLowerCase());
    return at >= 0 && this.query ? at : this.match.length;
  }
}

/**
 * What a key does during the search: narrow or step it ('search'), give it up and restore the
 * line ('cancel'), or take the match ('accept': the key then does its usual job).
 */
export function searchAction(
  search: ReverseSearch,
  s: string | undefined,
  k: Key,
): 'search' | 'cancel' | 'accept' {
  if (k.ctrl && k.name === 'r') search.next();
  else if ((k.ctrl && (k.name === 'g' || k.name === 'c')) || k.name === 'escape') return 'cancel';
  else if (k.name === 'backspace') search.backspace();
  else if (s && !k.ctrl && !k.meta && !/[\x00-\x1f\x7f]/.test(s)) search.type(s);
  else return 'accept';
  return 'search';
}

/** The prompt during the search, as bash shows it. */
export function searchPrompt(query: string, failed: boolean): string {
  return `(${failed ? 'failed ' : ''}reverse-i-search)'${query}': `;
}
