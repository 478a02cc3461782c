import { renderBlock, splitBlocks } from './markdown.js';

/** Markdown drawn block by block (sanitized HTML; see markdown.ts). */
export function Markdown({ text }: { text: string }) {
  return (
    <div class="md">
      {splitBlocks(text).map((block, i) => (
        <div key={i} class="md-block" dangerouslySetInnerHTML={{ __html: renderBlock(block) }} />
      ))}
    </div>
  );
}
