import { ROWS_PER_PART, renderBlock, renderTablePart, splitBlocks, tableParts } from './markdown.js';

/**
 * Markdown drawn block by block (sanitized HTML; see markdown.ts): while an answer streams only
 * its last block changes, and a long table is drawn as parts of 25 rows (<tbody>s of one table,
 * so its columns stay aligned), of which only the last is re-rendered as rows arrive.
 */
export function Markdown({ text }: { text: string }) {
  return (
    <div class="md">
      {splitBlocks(text).map((block, i) => {
        const table = tableParts(block);
        return table ? (
          <Table key={i} head={table.head} rows={table.rows} />
        ) : (
          <div key={i} class="md-block" dangerouslySetInnerHTML={{ __html: renderBlock(block) }} />
        );
      })}
    </div>
  );
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
          <tbody key={i} dangerouslySetInnerHTML={{ __html: renderTablePart(head, part, 'body') }} />
        ))}
      </table>
    </div>
  );
}
