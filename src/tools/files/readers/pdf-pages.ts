/**
 * Where each page of a PDF starts in its extracted text, remembered per file version (path,
 * size, modification time) for the life of the process. A continuation call (`offset` from the
 * previous page's marker) then starts parsing at the page holding that offset instead of page 1,
 * and offsets mean the same on every call because the text of a page never changes.
 */

export interface PageStarts {
  /** The latest page known to start at or before `offset` (1 when nothing is known). */
  pageAt(offset: number): number;
  startOf(page: number): number;
  record(page: number, start: number): void;
}

/** Files remembered; each costs a few numbers per page. */
const MAX_FILES = 32;
const known = new Map<string, number[]>();

export function pageStarts(key: string | undefined): PageStarts {
  let starts = key ? known.get(key) : undefined;
  if (!starts) {
    starts = [0, 0]; // starts[1] = 0: page 1 starts the text
    if (key) {
      if (known.size >= MAX_FILES) known.delete(known.keys().next().value!);
      known.set(key, starts);
    }
  }
  const s = starts;
  return {
    pageAt(offset) {
      let page = 1;
      for (let n = 1; n < s.length; n++) if (s[n] !== undefined && s[n]! <= offset) page = n;
      return page;
    },
    startOf: (page) => s[page] ?? 0,
    record(page, start) {
      // Only pages whose predecessors are all known, so every recorded start is exact.
      if (page <= s.length) s[page] = start;
    },
  };
}
