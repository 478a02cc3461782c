/**
 * Images an MCP tool returns, put in front of a vision model. A tool result is text (the API
 * takes no image in a `tool` message), so each image is shown to a vision model — the chat's own
 * when it can see, else glm-4.6v-flash — and its description becomes that part of the result,
 * saying which model described it. Images the API cannot take (not PNG/JPG, over 5 MB), no
 * client or a failed call keep the one-line note, with the reason.
 */

import { DEFAULT_VISION_MODEL } from '../../llm/models.js';
import type { ContentPart, PlatformClient } from '../../llm/types.js';
import { isVisionModel, VISION_LIMITS } from '../../llm/vision.js';
import { t } from '../../support/i18n/index.js';
import { formatBytes } from '../../support/text.js';
import type { ToolContext } from '../types.js';

export interface McpImage {
  data: string;
  mimeType: string;
}

/** Images described per result; more are only noted (each one costs a vision call's tokens). */
export const MAX_DESCRIBED = 4;
const ACCEPTED = ['image/png', 'image/jpeg', 'image/jpg'];

/** The model that looks at the images: the chat's when it is a vision model, else the default. */
export function visionModelFor(chatModel: string | undefined): string {
  return chatModel && isVisionModel(chatModel) ? chatModel : DEFAULT_VISION_MODEL;
}

export const imageBytes = (base64: string) => Math.floor((base64.length * 3) / 4);

/** Why an image cannot go to the vision model, or undefined when it can. */
export function unfit(image: McpImage): string | undefined {
  if (!ACCEPTED.includes(image.mimeType.toLowerCase()))
    return `${image.mimeType} is not a type the vision model takes (PNG or JPG)`;
  if (imageBytes(image.data) > VISION_LIMITS.maxBytes)
    return `it is larger than the vision model's ${formatBytes(VISION_LIMITS.maxBytes)}`;
  return undefined;
}

export interface DescribeRequest {
  server: string;
  tool: string;
  images: McpImage[];
  model: string;
}

/**
 * One text per image, in order: the vision model's description, or a note saying why there is
 * none. The vision call's cost is counted with the run's (ctx.reportUsage).
 */
export async function describeImages(
  req: DescribeRequest,
  ctx: ToolContext,
  client: PlatformClient | undefined,
): Promise<string[]> {
  const head = (img: McpImage) =>
    `[image from the MCP server "${req.server}": ${img.mimeType}, ${formatBytes(imageBytes(img.data))}`;
  const fit = req.images.map((img, i) =>
    i < MAX_DESCRIBED ? unfit(img) : 'only the first 4 images are described',
  );
  const shown = req.images.filter((_, i) => fit[i] === undefined);
  let described: string[] = [];
  let failure: string | undefined;
  if (shown.length && !client) failure = 'no vision model can be reached here';
  else if (shown.length && client) {
    const outcome = await askVision(req, shown, ctx, client);
    if ('error' in outcome) failure = outcome.error;
    else described = outcome.texts;
  }
  let next = 0;
  return req.images.map((img, i) => {
    if (fit[i] !== undefined) return `${head(img)}; not shown to a vision model: ${fit[i]}]`;
    if (failure !== undefined) return `${head(img)}; the vision model could not describe it: ${failure}]`;
    const text = described[next++] ?? '';
    return `${head(img)}, described by the vision model ${req.model}; the image itself is not in this conversation]\n${text}`;
  });
}

const PROMPT = (req: DescribeRequest, count: number) =>
  `The tool "${req.tool}" of the MCP server "${req.server}" returned ${count === 1 ? 'this image' : `these ${count} images`} ` +
  'to an assistant that cannot see images. Describe what matters for someone who cannot see ' +
  (count === 1 ? 'it' : 'them') +
  ': all text in it word for word, numbers, tables, charts, diagrams and layout. Be precise and complete, without guessing.' +
  (count > 1 ? ` Start the description of each image with a line "## Image N" (N from 1 to ${count}).` : '');

async function askVision(
  req: DescribeRequest,
  images: McpImage[],
  ctx: ToolContext,
  client: PlatformClient,
): Promise<{ texts: string[] } | { error: string }> {
  ctx.progress(t('mcp.progress.vision', { model: req.model, count: images.length }));
  const content: ContentPart[] = [
    { type: 'text', text: PROMPT(req, images.length) },
    ...images.map(
      (img): ContentPart => ({
        type: 'image_url',
        image_url: { url: `data:${img.mimeType.toLowerCase()};base64,${img.data}` },
      }),
    ),
  ];
  const res = await client.complete({
    model: req.model,
    messages: [{ role: 'user', content }],
    thinking: false,
    signal: ctx.signal,
  });
  if (res.type === 'error') return { error: res.error.message };
  ctx.reportUsage(res.model || req.model, res.usage);
  const text = (res.message.content ?? '').trim() || '(the vision model gave no description)';
  return { texts: images.length === 1 ? [text] : splitPerImage(text, images.length) };
}

/** "## Image 1 … ## Image 2 …" into one text per image; the whole text for each when it is not split so. */
function splitPerImage(text: string, count: number): string[] {
  const parts = text.split(/^#+\s*Image\s+\d+\s*$/im).map((p) => p.trim());
  const bodies = parts.slice(1);
  if (bodies.length === count) return bodies;
  return [text, ...Array.from({ length: count - 1 }, () => '(described together with the image above)')];
}
