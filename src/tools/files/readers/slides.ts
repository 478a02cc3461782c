/** The one shape of a presentation as text, whatever file it came from (.pptx, .odp, converted .ppt). */

export interface SlideText {
  title: string;
  /** Markdown blocks: paragraphs, bullet lists, tables. */
  blocks: string[];
  notes: string;
  hidden?: boolean;
}

/** `## Slide 2: Title`, its text, then its speaker notes under "Notes:". */
export function renderSlides(slides: SlideText[]): string {
  if (!slides.length) return '(This presentation has no slides.)';
  return slides
    .map((s, i) => {
      const head = `## Slide ${i + 1}${s.title ? `: ${s.title.replace(/\s*\n\s*/g, ' ')}` : ''}${s.hidden ? ' (hidden)' : ''}`;
      const parts = [head, ...s.blocks];
      if (s.notes.trim()) parts.push(`Notes:\n${s.notes.trim()}`);
      return parts.join('\n\n');
    })
    .join('\n\n');
}
