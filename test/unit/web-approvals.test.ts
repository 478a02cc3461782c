import { describe, expect, it, vi } from 'vitest';
import type { ToolApproval } from '../../src/agent/loop.js';
import { Approvals } from '../../src/cli/web/approvals.js';
import { EventChannel } from '../../src/cli/web/channel.js';
import { ALWAYS_STANDING } from '../../src/tools/types.js';

const req: ToolApproval = {
  name: 'shell',
  kind: 'shell',
  args: { command: 'ls' },
  preview: '$ ls',
  warning: 'This may change files.',
  summary: { text: 'sandboxed', risky: false },
  choices: [
    { key: 'w', label: 'also write here', grant: 'write-cwd' },
    { key: 'a', label: 'always ls', grant: ALWAYS_STANDING },
  ],
};

function setup() {
  const approvals = new Approvals();
  const channel = new EventChannel();
  const emit = vi.spyOn(channel, 'emit');
  const prompter = approvals.prompter(channel);
  const asked = () =>
    emit.mock.calls.filter(([name]) => name === 'approval').map(([, data]) => data as { id: string });
  const done = () => emit.mock.calls.filter(([name]) => name === 'approval_done').map(([, data]) => data);
  return { approvals, prompter, asked, done };
}

describe('web approvals', () => {
  it.each([
    ['no', [], false],
    ['yes', [], true],
    ['yes', ['w'], { grants: ['write-cwd'] }],
    ['yes', ['a', 'x'], true],
    ['always', [], { grants: [ALWAYS_STANDING] }],
    ['always', ['w'], { grants: ['write-cwd', ALWAYS_STANDING] }],
  ] as const)('%s with %j → %j', async (answer, keys, want) => {
    const { approvals, prompter, asked, done } = setup();
    const pending = prompter.confirmTool(req, new AbortController().signal);
    const [event] = asked();
    expect(event).toMatchObject({
      kind: 'tool',
      canAlways: true,
      choices: [{ key: 'w', label: 'also write here' }],
    });
    expect(approvals.answer(event!.id, answer, [...keys])).toBe(true);
    expect(await pending).toEqual(want);
    expect(approvals.answer(event!.id, 'yes')).toBe(false);
    expect(done()).toEqual([{ id: event!.id, answer }]);
  });

  it('waits with no default; a stop withdraws it as a no', async () => {
    const { prompter, asked, done } = setup();
    const stop = new AbortController();
    let settled = false;
    const pending = prompter.confirmTool(req, stop.signal).then((a) => {
      settled = true;
      return a;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    stop.abort();
    expect(await pending).toBe(false);
    expect(done()).toEqual([{ id: asked()[0]!.id, answer: 'withdrawn' }]);
  });

  it("the wording is the terminal's, with the page's warning mark and no key line", async () => {
    const { prompter, asked } = setup();
    void prompter.confirmTool(req, new AbortController().signal);
    const event = asked()[0] as unknown as {
      title: string;
      lines: string[];
      question: string;
      danger: boolean;
    };
    expect(event.lines).toEqual(['  $ ls', '⚠ This may change files.', 'sandboxed']);
    expect(event.danger).toBe(true);
    expect(event.question).not.toMatch(/\[y\/N\]/);
  });
});
