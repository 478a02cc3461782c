import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ChatSession } from '../../src/agent/chat.js';
import { newConversation } from '../../src/agent/conversation.js';
import type { RunEvent } from '../../src/agent/events.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import type { ContentPart } from '../../src/llm/types.js';
import { UsageTracker } from '../../src/llm/usage.js';
import { imagePart, modelForTurn, visionModelFor, withoutImages } from '../../src/llm/vision.js';
import { ZhiError } from '../../src/support/errors.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { ScriptedLlm } from '../helpers/fake-llm.js';
import { makeJpegHeader, makePng } from '../helpers/media.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('zhi-vision-');
  return () => cleanup(dir);
});

async function failure(p: Promise<unknown>): Promise<ZhiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ZhiError);
  return err as ZhiError;
}

describe('imagePart', () => {
  it('turns a PNG into an image_url data URI', async () => {
    const png = makePng(64, 48);
    writeFileSync(join(dir, 'chart.png'), png);
    const a = await imagePart(join(dir, 'chart.png'), 'chart.png');
    expect(a.part).toEqual({
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${png.toString('base64')}` },
    });
    expect([a.width, a.height, a.bytes]).toEqual([64, 48, png.length]);
  });

  it('a JPG is sent as image/jpeg', async () => {
    writeFileSync(join(dir, 'p.jpg'), makeJpegHeader(800, 600));
    const a = await imagePart(join(dir, 'p.jpg'));
    expect((a.part as Extract<ContentPart, { type: 'image_url' }>).image_url.url).toMatch(
      /^data:image\/jpeg;base64,/,
    );
  });

  it('refuses images over 5 MB, saying the limit and what to do', async () => {
    writeFileSync(join(dir, 'big.png'), makePng(10, 10));
    truncateSync(join(dir, 'big.png'), 5 * 1024 * 1024 + 1);
    const err = await failure(imagePart(join(dir, 'big.png'), 'big.png'));
    expect(err.whatText()).toBe('big.png is 5.0 MB; images sent to the vision model must be at most 5.0 MB.');
    expect(err.tryTexts()[0]).toMatch(/Make the image smaller/);
  });

  it('refuses more than 6000×6000 pixels', async () => {
    writeFileSync(join(dir, 'wide.png'), makePng(6001, 2));
    const err = await failure(imagePart(join(dir, 'wide.png'), 'wide.png'));
    expect(err.whatText()).toBe('wide.png is 6001×2 pixels; the vision model accepts at most 6000×6000.');
  });

  it('refuses other formats and missing files clearly', async () => {
    writeFileSync(join(dir, 'a.gif'), Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(40)]));
    expect((await failure(imagePart(join(dir, 'a.gif'), 'a.gif'))).whatText()).toBe(
      'a.gif is a GIF file; the vision model accepts only JPG and PNG images.',
    );
    expect((await failure(imagePart(join(dir, 'nope.png'), 'nope.png'))).whatText()).toBe(
      'The image nope.png does not exist.',
    );
  });
});

describe('choosing the model', () => {
  const img: ContentPart[] = [
    { type: 'text', text: 'what is this?' },
    { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
  ];

  it('text stays on the chat model; images go to a vision model', () => {
    expect(modelForTurn('glm-5', 'hello')).toEqual({ model: 'glm-5', switched: false, tools: true });
    expect(modelForTurn('glm-5', img)).toEqual({ model: 'glm-4.6v-flash', switched: true, tools: true });
    expect(modelForTurn('glm-4.6v', img)).toEqual({ model: 'glm-4.6v', switched: false, tools: true });
    // One answer to "which model sees this image", for chat turns, attachments and MCP images alike.
    expect(visionModelFor('glm-5')).toBe('glm-4.6v-flash');
    expect(visionModelFor('glm-4.6v')).toBe('glm-4.6v');
  });

  it('text models get a note instead of image parts', () => {
    const out = withoutImages([{ role: 'user', content: img }]);
    expect(out).toEqual([
      {
        role: 'user',
        content:
          'what is this?\n[an image was attached here; it was shown to a vision model, whose answer follows]',
      },
    ]);
  });
});

describe('ChatSession with an image', () => {
  it('uses the vision model for that message, says so, and keeps later text turns image-free', async () => {
    const llm = new ScriptedLlm([{ text: 'A red square.' }, { text: 'Red.' }]);
    const chat = new ChatSession(
      {
        llm,
        tools: new ToolRegistry(),
        prompter: { interactive: false, confirmTool: async () => false, ask: async () => false },
        usage: new UsageTracker(PLATFORMS.bigmodel),
        cwd: dir,
        outputDir: join(dir, 'zhi-output'),
      },
      newConversation({ model: 'glm-5', thinking: true, mode: 'approve', maxTurns: 5, systemPrompt: 'sys' }),
    );
    const content: ContentPart[] = [
      { type: 'text', text: 'what is in this picture?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
    ];
    const events: RunEvent[] = [];
    for await (const ev of chat.send(content)) events.push(ev);
    // The stream opens with the user's message, then says where it goes.
    expect(events[0]).toEqual({ type: 'user', message: { role: 'user', content } });
    expect(events[1]).toEqual({
      type: 'warning',
      message: 'glm-5 cannot see images: this message goes to glm-4.6v-flash.',
    });
    expect(llm.requests[0]!.model).toBe('glm-4.6v-flash');
    expect(llm.requests[0]!.messages.at(-1)).toEqual({ role: 'user', content });

    for await (const _ of chat.send('and its colour?')) {
      // drain
    }
    expect(llm.requests[1]!.model).toBe('glm-5');
    expect(JSON.stringify(llm.requests[1]!.messages)).not.toContain('image_url');
    expect(chat.settings.model).toBe('glm-5');
    // The conversation itself keeps the image (a later vision turn, or the session file, has it).
    expect(JSON.stringify(chat.messages)).toContain('image_url');
  });
});
