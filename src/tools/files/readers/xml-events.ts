/**
 * A thin streaming XML reader over saxes, for the parts of Office files: element names without
 * their namespace prefix, attributes by their full name, text as it comes. Feed it chunks of
 * bytes (decoded as UTF-8 across chunk boundaries) and stop whenever the caller has enough.
 */
import { SaxesParser } from 'saxes';

export interface XmlHandlers {
  open?(name: string, attrs: Record<string, string>): void;
  text?(text: string): void;
  close?(name: string): void;
}

/** `w:tbl` → `tbl`: parts use fixed prefixes, but the names are what matter. */
export function localName(qname: string): string {
  const i = qname.indexOf(':');
  return i < 0 ? qname : qname.slice(i + 1);
}

export class XmlStream {
  private readonly parser = new SaxesParser();
  private readonly decoder = new TextDecoder('utf-8');

  constructor(handlers: XmlHandlers) {
    const { open, text, close } = handlers;
    if (open)
      this.parser.on('opentag', (tag) => open(localName(tag.name), tag.attributes as Record<string, string>));
    if (text) {
      this.parser.on('text', text);
      this.parser.on('cdata', text);
    }
    if (close) this.parser.on('closetag', (tag) => close(localName(tag.name)));
  }

  write(chunk: Uint8Array): void {
    this.parser.write(this.decoder.decode(chunk, { stream: true }));
  }

  /** Text already decoded (a slice of a part read whole). */
  writeText(text: string): void {
    this.parser.write(text);
  }

  end(): void {
    this.parser.write(this.decoder.decode());
    this.parser.close();
  }
}

/** Parse a whole (small) XML part. */
export function parseXml(text: string, handlers: XmlHandlers): void {
  const xml = new XmlStream(handlers);
  xml.write(new TextEncoder().encode(text));
  xml.end();
}
