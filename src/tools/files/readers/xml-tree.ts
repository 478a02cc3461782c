/**
 * A small element tree of an XML part (names without namespace prefix), for documents whose
 * structure nests — Word tables inside table cells, equations inside paragraphs — and is easier
 * to walk than to stream.
 */
import { yieldRead } from './read-signal.js';
import { parseXml, XmlStream } from './xml-events.js';

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}

export type XmlNode = XmlElement | string;

function treeBuilder() {
  const root: XmlElement = { name: '#root', attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  const handlers = {
    open(name: string, attrs: Record<string, string>) {
      const el: XmlElement = { name, attrs, children: [] };
      stack[stack.length - 1]!.children.push(el);
      stack.push(el);
    },
    text(t: string) {
      stack[stack.length - 1]!.children.push(t);
    },
    close() {
      stack.pop();
    },
  };
  return { root, handlers };
}

export function parseTree(xml: string): XmlElement {
  const { root, handlers } = treeBuilder();
  parseXml(xml, handlers);
  return root;
}

/** Characters parsed between two turns of the event loop (a few milliseconds of work). */
const SLICE = 256 * 1024;

/**
 * parseTree for a part that may be big (a document's body): parsed in slices, with a turn of the
 * event loop between them, so that Ctrl+C stops it (read-signal.ts).
 */
export async function parseTreeInSlices(xml: string): Promise<XmlElement> {
  if (xml.length <= SLICE) return parseTree(xml);
  const { root, handlers } = treeBuilder();
  const stream = new XmlStream(handlers);
  // saxes takes text in pieces, a surrogate pair cut between two of them included.
  for (let at = 0; at < xml.length; at += SLICE) {
    stream.writeText(xml.slice(at, at + SLICE));
    await yieldRead();
  }
  stream.end();
  return root;
}

export function isElement(n: XmlNode | undefined): n is XmlElement {
  return typeof n === 'object' && n !== null;
}

/** Child elements, optionally only those with a name. */
export function kids(el: XmlElement | undefined, name?: string): XmlElement[] {
  if (!el) return [];
  const out: XmlElement[] = [];
  for (const c of el.children) if (isElement(c) && (!name || c.name === name)) out.push(c);
  return out;
}

export function kid(el: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) if (isElement(c) && c.name === name) return c;
  return undefined;
}

/** An attribute by its local name (`w:val` → `val`). */
export function attr(el: XmlElement | undefined, local: string): string | undefined {
  if (!el) return undefined;
  for (const [k, v] of Object.entries(el.attrs)) if (k === local || k.endsWith(`:${local}`)) return v;
  return undefined;
}

/** The first descendant with a name, depth first. */
export function find(el: XmlElement, name: string): XmlElement | undefined {
  for (const c of el.children) {
    if (!isElement(c)) continue;
    if (c.name === name) return c;
    const deeper = find(c, name);
    if (deeper) return deeper;
  }
  return undefined;
}
