import { Component } from 'preact';
import { type Block, splitBlocks, tableParts } from './blocks.js';
import { ROWS_PER_PART, renderBlock, renderTablePart } from './markdown.js';

/**
 * Markdown drawn block by block (sanitized HTML; see markdown.ts). While an answer streams the
 * text is cut again only from its last block on, only the last block is drawn again, and a long
 * table is drawn as parts of 25 rows (<tbody>s of one table, so its columns stay aligned), of
 * which only the last changes as rows arrive.
 */
export class Markdown extends Component<{ text: string }> {
  private text = '';
  private blocks: Block[] = [];

  private split(text: string): Block[] {
    const last = this.blocks[this.blocks.length - 1];
    if (last && text.startsWith(this.text))
      this.blocks = [...this.blocks.slice(0, -1), ...splitBlocks(text, last.start)];
    else this.blocks = splitBlocks(text);
    this.text = text;
    return this.blocks;
  }

  override render({ text }: { text: string }) {
    return (
      <div class="md">
        {this.split(text).map((b) => (
          <BlockView key={b.start} text={b.text} />
        ))}
      </div>
    );
  }
}

class BlockView extends Component<{ text: string }> {
  override shouldComponentUpdate(next: { text: string }): boolean {
    return next.text !== this.props.text;
  }

  override render({ text }: { text: string }) {
    const table = tableParts(text);
    if (table) return <Table head={table.head} rows={table.rows} />;
    return <div class="md-block" dangerouslySetInnerHTML={{ __html: renderBlock(text) }} />;
  }
}

function Table({ head, rows }: { head: string; rows: string[] }) {
  const parts: string[][] = [];
  const filled = rows.filter((r) => r.trim() !== '');
  for (let i = 0; i < filled.length; i += ROWS_PER_PART) parts.push(filled.slice(i, i + ROWS_PER_PART));
  return (
    <div class="md-block">
      <table>
        <thead dangerouslySetInnerHTML={{ __html: renderTablePart(head, [], 'head') }} />
        {parts.map((part, i) => (
          <TablePart key={i} head={head} rows={part} />
        ))}
      </table>
    </div>
  );
}

class TablePart extends Component<{ head: string; rows: string[] }> {
  override shouldComponentUpdate(next: { head: string; rows: string[] }): boolean {
    return next.head !== this.props.head || next.rows.join('\n') !== this.props.rows.join('\n');
  }

  override render({ head, rows }: { head: string; rows: string[] }) {
    return <tbody dangerouslySetInnerHTML={{ __html: renderTablePart(head, rows, 'body') }} />;
  }
}
