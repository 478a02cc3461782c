/**
 * Agent Skills as others write them (copies of anthropics/skills in test/fixtures/skills/real):
 * listed in chat by name and description only and loaded with the `skill` tool; run with
 * `zhi run` with free text, files and stdin; bundled files found case-insensitively and read in
 * pages; a Claude model id falls back; project-level `.agents/skills/` discovered.
 */
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { makePdf } from '../helpers/media.js';
import { toolNames } from '../helpers/requests.js';
import { unwrap } from '../helpers/untrusted.js';

const REAL = resolve(import.meta.dirname, '../fixtures/skills/real');

const e = useE2E();
const { fake } = e;
let home: string;
let work: string;
beforeEach(() => {
  ({ home, cwd: work } = e);
});

const zhi = (args: string[], o: { stdin?: string } = {}) =>
  e.zhi(args, { ...(o.stdin !== undefined ? { stdin: o.stdin } : {}) });

function installReal(...names: string[]): void {
  for (const n of names) cpSync(join(REAL, n), join(home, 'skills', n), { recursive: true });
}

/** SKILL.md skills may write files, so they are trusted once, as a person would. */
async function trust(names: string[], cwd = work): Promise<void> {
  const r = await e.zhi(['skill', 'trust', ...names], { cwd });
  expect(r.code).toBe(0);
}

const system = (req: RecordedRequest): string => req.body.messages[0].content;
const lastTool = (req: RecordedRequest): string =>
  [...req.body.messages].reverse().find((m: { role: string }) => m.role === 'tool')?.content ?? '';

describe('Agent Skills in chat', () => {
  it('lists three real skills by name and description only, loads one with the skill tool, and reads a bundled file by relative path', async () => {
    installReal('internal-comms', 'brand-guidelines', 'pdf');
    fake.script(
      { kind: 'tools', calls: [{ name: 'skill', arguments: { name: 'internal-comms' } }] },
      {
        kind: 'tools',
        calls: [{ name: 'skill', arguments: { name: 'internal-comms', path: 'examples/3p-updates.md' } }],
      },
      { kind: 'text', text: 'Here is your 3P update.' },
    );
    const r = await zhi(['-c', 'Write a 3P update for my team']);
    expect(r.stderr).not.toContain('Error');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Here is your 3P update.\n');

    const [first, second, third] = fake.chatRequests();
    const prompt = system(first!);
    expect(prompt).toContain(
      '- internal-comms: A set of resources to help me write all kinds of internal communications',
    );
    expect(prompt).toContain("- brand-guidelines: Applies Anthropic's official brand colors");
    expect(prompt).toContain('- pdf: Work with PDF files - read their text, check and fill form fields');
    expect(toolNames(first!)).toContain('skill');
    // Nothing of any skill's body (or bundled files) is sent before the model loads it.
    const sent = JSON.stringify(first!.body);
    for (const bodyText of [
      'Identify the communication type',
      'Anthropic Brand Styling',
      'Working with PDF files',
      'Progress, Plans, Problems',
    ]) {
      expect(sent).not.toContain(bodyText);
    }

    const loaded = lastTool(second!);
    expect(loaded).toContain('<skill name="internal-comms">');
    expect(loaded).toContain('**Identify the communication type** from the request');
    expect(loaded).toContain(
      `This skill's folder is ${JSON.stringify(join(home, 'skills', 'internal-comms'))}`,
    );
    expect(loaded).not.toContain('Anthropic Brand Styling');
    expect(lastTool(third!)).toContain('3P');
    expect(lastTool(third!)).toBe(
      (await import('node:fs')).readFileSync(join(REAL, 'internal-comms/examples/3p-updates.md'), 'utf8'),
    );
  });

  it("honours allowed-tools in chat as zhi run does: once the skill is loaded only its tools run (shell only its programs), listed ones still go through the policy; the limit is told in the person's language", async () => {
    mkdirSync(join(home, 'skills', 'tidy', 'scripts'), { recursive: true });
    writeFileSync(
      join(home, 'skills', 'tidy', 'SKILL.md'),
      '---\nname: tidy\ndescription: Tidy a CSV file with the bundled script.\nallowed-tools: Bash(python3:*) Read\n---\nRun scripts/tidy.py on the file.\n',
    );
    writeFileSync(join(home, 'skills', 'tidy', 'scripts', 'tidy.py'), 'print("tidy")\n');
    writeFileSync(join(work, 'a.csv'), 'x,y\n');
    fake.script(
      // Before the skill is loaded nothing limits the chat: this write only fails for want of a terminal.
      { kind: 'tools', calls: [{ name: 'file_write', arguments: { path: 'before.txt', content: 'x' } }] },
      { kind: 'tools', calls: [{ name: 'skill', arguments: { name: 'tidy' } }] },
      { kind: 'tools', calls: [{ name: 'file_write', arguments: { path: 'out.csv', content: 'x' } }] },
      {
        kind: 'tools',
        calls: [{ name: 'shell', arguments: { command: 'python3 scripts/tidy.py a.csv && rm -rf ~' } }],
      },
      { kind: 'tools', calls: [{ name: 'shell', arguments: { command: 'python3 scripts/tidy.py a.csv' } }] },
      { kind: 'tools', calls: [{ name: 'file_read', arguments: { path: 'a.csv' } }] },
      { kind: 'tools', calls: [{ name: 'skill', arguments: { name: 'tidy', path: 'scripts/tidy.py' } }] },
      { kind: 'text', text: 'Done within the skill.' },
    );
    const r = await e.zhi(['-c', 'tidy a.csv'], { env: { ZHI_LANGUAGE: 'zh' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Done within the skill.\n');
    const results = fake.chatRequests().slice(1).map(lastTool).map(unwrap);
    expect(results[0]).not.toContain('allows only');
    expect(results[1]).toContain(
      'zhi runs only these tools, as its allowed-tools says: shell (python3), file_read',
    );
    expect(results[2]).toBe(
      'Error: Refused: the skill "tidy" you loaded allows only these tools: shell (python3), file_read; "file_write" is not one of them. Use those tools, or tell the person what else you need and why. This cannot be confirmed; do not try it another way.',
    );
    expect(results[3]).toContain('allows only shell commands that start with python3; "rm -rf ~" does not.');
    // A command the skill allows still goes through the policy: here no one can approve it.
    expect(results[4]).not.toContain('allows only');
    expect(results[4]).toMatch(/^Error: /);
    expect(results[5]).toBe('x,y\n');
    expect(results[6]).toContain('print("tidy")');
    expect(existsSync(join(work, 'out.csv'))).toBe(false);
    expect(r.stderr).toContain(
      '技能 tidy 只允许使用这些工具：shell (python3), file_read。file_write 没有运行。',
    );
    expect(r.stderr).toContain('技能 tidy 只允许以 python3 开头的命令。这条命令没有运行：rm -rf ~');
  });

  it('refuses a bundled path outside the skill folder, and a skill that does not exist', async () => {
    installReal('internal-comms');
    writeFileSync(join(home, 'secret.txt'), 'top secret');
    fake.script(
      {
        kind: 'tools',
        calls: [
          { name: 'skill', arguments: { name: 'internal-comms', path: '../../secret.txt' } },
          { name: 'skill', arguments: { name: 'nope' } },
        ],
      },
      { kind: 'text', text: 'ok' },
    );
    const r = await zhi(['-c', 'hi']);
    expect(r.code).toBe(0);
    const msgs = fake.chatRequests()[1]!.body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(msgs[0].content).toContain("is not one of this skill's files");
    expect(msgs[0].content).not.toContain('top secret');
    expect(msgs[1].content).toContain('There is no skill called "nope"');
  });
});

describe('zhi run with a real SKILL.md', () => {
  it('gives the pdf skill the task in free text and the file, plus its folder; REFERENCE.md is found as reference.md', async () => {
    installReal('pdf');
    await trust(['pdf']);
    writeFileSync(join(work, 'f1040.pdf'), makePdf(['Form 1040 U.S. Individual Income Tax Return']));
    fake.script(
      { kind: 'tools', calls: [{ name: 'read_reference', arguments: { path: 'REFERENCE.md' } }] },
      { kind: 'text', text: 'Filled.' },
    );
    const r = await zhi(['run', 'pdf', 'f1040.pdf', 'fill', 'in', 'my', 'name', 'as', 'Li', 'Lei']);
    expect(r.stderr).not.toContain('Too many inputs');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Filled.\n');
    const [first, second] = fake.chatRequests();
    const user = first!.body.messages[1].content as string;
    expect(user).toContain("The person's request, in their words:\nfill in my name as Li Lei");
    expect(user).toContain('<document name="f1040.pdf">');
    expect(user).toContain('Form 1040 U.S. Individual Income Tax Return');
    expect(user).not.toContain('given no inputs');
    expect(system(first!)).toContain(`This skill's folder is ${JSON.stringify(join(home, 'skills', 'pdf'))}`);
    expect(system(first!)).toContain('scripts/check_fillable_fields.py');
    expect(lastTool(second!)).toContain('# PDF reference');
  });

  it('takes piped stdin as a document for a skill without declared inputs', async () => {
    installReal('internal-comms');
    await trust(['internal-comms']);
    const r = await zhi(['run', 'internal-comms', 'turn', 'these', 'notes', 'into', 'a', 'newsletter'], {
      stdin: 'Q3: revenue up 12%. New office in Shenzhen.',
    });
    expect(r.code).toBe(0);
    const user = fake.chatRequests()[0]!.body.messages[1].content as string;
    expect(user).toContain("The person's request, in their words:\nturn these notes into a newsletter");
    expect(unwrap(user)).toContain('<document name="stdin">\nQ3: revenue up 12%. New office in Shenzhen.');
    expect(user).toMatch(/<document name="stdin">\n<untrusted-data id="[0-9a-f]+" source="standard input">/);
  });

  it('runs a skill that asks for a Claude model on the skill model, with a warning', async () => {
    mkdirSync(join(home, 'skills', 'claude-notes'), { recursive: true });
    writeFileSync(
      join(home, 'skills', 'claude-notes', 'SKILL.md'),
      '---\nname: claude-notes\ndescription: Tidy notes\nmodel: claude-sonnet-4-5\n---\nTidy the notes.\n',
    );
    await trust(['claude-notes']);
    const r = await zhi(['run', 'claude-notes', 'tidy', 'this']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'the skill claude-notes asks for the model "claude-sonnet-4-5", which zhi does not know; it runs on glm-4-flash instead',
    );
    expect(fake.chatRequests()[0]!.body.model).toBe('glm-4-flash');
  });

  it('discovers a project-level .agents/skills skill, and loads one whose description has an unquoted colon', async () => {
    const project = join(work, 'proj');
    mkdirSync(join(project, '.git'), { recursive: true });
    mkdirSync(join(project, '.agents', 'skills', 'release-notes'), { recursive: true });
    writeFileSync(
      join(project, '.agents', 'skills', 'release-notes', 'SKILL.md'),
      '---\nname: release-notes\ndescription: Write release notes. Use when: the user asks for a changelog\n---\nWrite release notes from the git log.\n',
    );
    mkdirSync(join(project, 'src'), { recursive: true });
    const r = await e.zhi(['skill', 'list'], { cwd: join(project, 'src') });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('release-notes');
    expect(r.stdout).toContain('project');
    await trust(['release-notes'], join(project, 'src'));
    const run = await e.zhi(['run', 'release-notes', 'for', 'v2'], { cwd: join(project, 'src') });
    expect(run.code).toBe(0);
    expect(system(fake.chatRequests()[0]!)).toContain('Write release notes from the git log.');
  });

  it('loads a SKILL.md with a slip of the spec (name, folder, long description) and warns, naming the rule', async () => {
    const write = (folder: string, front: string) => {
      mkdirSync(join(home, 'skills', folder), { recursive: true });
      writeFileSync(join(home, 'skills', folder, 'SKILL.md'), `---\n${front}\n---\nbody\n`);
    };
    write('my-skill', 'name: My_Skill\ndescription: d');
    write('spaced', 'name: My Skill\ndescription: d');
    write('pdf-tools', 'name: pdf\ndescription: d');
    write('other', `name: other\ndescription: ${'x'.repeat(1100)}`);
    const r = await zhi(['skill', 'list']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('the name "My_Skill" breaks the Agent Skills rules');
    expect(r.stderr).toContain('it is loaded as "My_Skill"');
    expect(r.stderr).toContain('it is loaded as "spaced"');
    expect(r.stderr).toContain('the name "pdf" differs from the skill\'s folder "pdf-tools"');
    expect(r.stderr).toContain(
      'the description is 1100 characters long, over the Agent Skills limit of 1024',
    );
    for (const name of ['My_Skill', 'spaced', 'pdf', 'other']) expect(r.stdout).toContain(name);
  });
});
