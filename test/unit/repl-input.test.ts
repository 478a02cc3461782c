import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AttachEnv,
  attachFromMessage,
  buildContent,
  documentBlock,
  remainder,
} from '../../src/cli/repl/attach/attach.js';
import { detectPaths } from '../../src/cli/repl/attach/paths.js';
import { escapeEntry, History, unescapeEntry } from '../../src/cli/repl/history.js';
import { classify, continues } from '../../src/cli/repl/input.js';
import { ReverseSearch } from '../../src/cli/repl/search.js';
import { looksSecret } from '../../src/cli/repl/secrets.js';
import { setLanguage } from '../../src/support/i18n/index.js';
import { ToolError } from '../../src/tools/types.js';
import { unwrap } from '../helpers/untrusted.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const commands = new Set(['help', 'model', 'run', 'exit', 'quit']);

describe('classify', () => {
  const none = () => false;
  it('tells commands from messages', () => {
    expect(classify('/model glm-4.7', commands, none)).toEqual({
      kind: 'command',
      name: 'model',
      args: 'glm-4.7',
    });
    expect(classify('  /HELP  ', commands, none)).toEqual({ kind: 'command', name: 'help', args: '' });
    expect(classify('hello /model', commands, none)).toEqual({ kind: 'message', text: 'hello /model' });
    expect(classify('   ', commands, none)).toEqual({ kind: 'empty' });
  });

  it('reads a Chinese input method slash (、 or ／) before a command name as /', () => {
    expect(classify('、help', commands, none)).toEqual({ kind: 'command', name: 'help', args: '' });
    expect(classify('／model glm-4.7', commands, none)).toEqual({
      kind: 'command',
      name: 'model',
      args: 'glm-4.7',
    });
    expect(classify('、', commands, none)).toEqual({ kind: 'command', name: '', args: '' });
    // Chinese text after 、 is a message, as typed.
    expect(classify('、顺便说一下', commands, none)).toEqual({ kind: 'message', text: '、顺便说一下' });
  });

  it('treats a first word that is a path as a message', () => {
    expect(classify('/path/to/file.pdf what is this', commands, none)).toEqual({
      kind: 'message',
      text: '/path/to/file.pdf what is this',
    });
    expect(classify('/report.pdf 总结', commands, none).kind).toBe('message');
    expect(classify('/tmp 里有什么', commands, (p) => p === '/tmp').kind).toBe('message');
  });

  it('keeps known commands even when a folder of that name exists (/run on Linux)', () => {
    expect(classify('/run translate a.md', commands, () => true)).toEqual({
      kind: 'command',
      name: 'run',
      args: 'translate a.md',
    });
  });

  it('reports unknown commands (and a lone slash) as commands, for a suggestion', () => {
    expect(classify('/modle x', commands, none)).toEqual({ kind: 'command', name: 'modle', args: 'x' });
    expect(classify('/', commands, none)).toEqual({ kind: 'command', name: '', args: '' });
  });

  it('keeps multi-line arguments', () => {
    expect(classify('/run translate\nsecond line', commands, none)).toEqual({
      kind: 'command',
      name: 'run',
      args: 'translate\nsecond line',
    });
  });
});

describe('continues', () => {
  it('continues a line that ends with one backslash', () => {
    expect(continues('first part \\')).toBe('first part ');
    expect(continues('no')).toBeUndefined();
    expect(continues('escaped \\\\')).toBeUndefined();
    expect(continues('odd \\\\\\')).toBe('odd \\\\');
  });
});

describe('looksSecret', () => {
  it.each([
    'my key is 0123456789abcdef0123456789abcdef.AbCdEfGhIjKl',
    'export OPENAI_API_KEY=sk-proj-abcdefghijklmnop1234',
    'password=hunter2',
    'db password: s3cret!',
    'token = abc.def',
    'api_key: 123456',
    'API-KEY="zzz"',
    'Authorization: Bearer abcdefghijklmnopqrstuvwxyz',
    '我的密码是 abc123456',
    '密码：abc123',
    'zhi config set api_key abc',
    'https://user:pa55@example.com/x',
    'ghp_abcdefghijklmnopqrstuvwxyz0123',
    'AKIAABCDEFGHIJKLMNOP',
  ])('%s', (line) => {
    expect(looksSecret(line)).toBe(true);
  });

  it.each([
    'how do I reset my password?',
    '总结这份合同，注意 token 用量',
    'what is an API key',
    'translate report.docx to English',
    '把密码字段从表格里删掉',
  ])('keeps "%s"', (line) => {
    expect(looksSecret(line)).toBe(false);
  });
});

describe('History', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => cleanup(dir));

  it('persists entries across loads, newest first, one line each', async () => {
    const file = join(dir, 'sub', 'history');
    const h = await History.load(file);
    expect(await h.add('你好')).toBe(true);
    expect(await h.add('line one\nline two')).toBe(true);
    expect(await h.add('back\\slash')).toBe(true);
    const again = await History.load(file);
    expect(again.entries()).toEqual(['back\\slash', 'line one\nline two', '你好']);
    expect(readFileSync(file, 'utf8')).toBe('你好\nline one\\nline two\nback\\\\slash\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('never stores secrets, blanks or an immediate repeat', async () => {
    const file = join(dir, 'history');
    const h = await History.load(file);
    expect(await h.add('password=hunter2')).toBe(false);
    expect(await h.add('   ')).toBe(false);
    expect(await h.add('same')).toBe(true);
    expect(await h.add('same')).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('same\n');
  });

  it('drops secrets that an older version left in the file', async () => {
    const file = join(dir, 'history');
    writeFileSync(file, 'ok\ntoken=abc\n');
    expect((await History.load(file)).entries()).toEqual(['ok']);
  });

  it('keeps at most the limit, and compacts the file when it has grown', async () => {
    const file = join(dir, 'history');
    const h = await History.load(file, 4);
    for (let i = 1; i <= 7; i++) await h.add(`m${i}`);
    expect(h.entries()).toEqual(['m7', 'm6', 'm5', 'm4']);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(6);
    expect((await History.load(file, 4)).entries()).toEqual(['m7', 'm6', 'm5', 'm4']);
  });

  it('starts empty when the file cannot be read', async () => {
    expect((await History.load(join(dir, 'missing'))).size).toBe(0);
  });

  it('escapes round-trip', () => {
    for (const s of ['a\\nb', 'x\ny', '\\', 'C:\\dir\\', '中文\n第二行'])
      expect(unescapeEntry(escapeEntry(s))).toBe(s);
  });
});

describe('ReverseSearch', () => {
  const entries = ['总结 report.pdf', 'translate a.md', '总结 b.docx', 'hello'];
  it('finds newer matches first, older ones with Ctrl+R again, and keeps the last match on failure', () => {
    const s = new ReverseSearch(entries, 'typed');
    expect(s.match).toBe('typed');
    s.type('总结');
    expect(s.match).toBe('总结 report.pdf');
    s.next();
    expect(s.match).toBe('总结 b.docx');
    s.next();
    expect(s.failed).toBe(true);
    expect(s.match).toBe('总结 b.docx');
    s.backspace();
    s.backspace();
    expect(s.query).toBe('');
    expect(s.match).toBe('typed');
  });

  it('is case-insensitive and puts the cursor at the match', () => {
    const s = new ReverseSearch(entries, '');
    s.type('MD');
    expect(s.match).toBe('translate a.md');
    expect(s.cursor()).toBe('translate a.'.length);
  });
});

describe('attachments', () => {
  let dir: string;
  const notes: string[] = [];
  beforeEach(() => {
    dir = tempDir();
    notes.length = 0;
    setLanguage('en');
  });
  afterEach(() => cleanup(dir));

  function env(over: Partial<AttachEnv> = {}): AttachEnv {
    return {
      cwd: dir,
      home: dir,
      isFile: (p) => statSync(p).isFile(),
      fileSize: (p) => statSync(p).size,
      note: (l) => notes.push(l),
      confirm: async () => true,
      readDocument: async (p) => ({
        text: readFileSync(p, 'utf8'),
        kind: 'text',
        fileBytes: statSync(p).size,
        truncated: false,
      }),
      errorCode: (e) => (e as { code?: string }).code,
      ...over,
    };
  }

  it('attaches a text file named in the message and says so', async () => {
    writeFileSync(join(dir, 'notes.md'), '# 会议记录\n- 事项一');
    const r = await attachFromMessage('总结一下 notes.md 的要点', env());
    expect(r.onlyFiles).toBe(false);
    expect(r.attachments.documents).toEqual([
      documentBlock('notes.md', join(dir, 'notes.md'), '# 会议记录\n- 事项一'),
    ]);
    expect(notes).toEqual([expect.stringMatching(/^Attached notes\.md \(text, \d+ B\)$/)]);
    // The document reaches the model marked as data from outside (support/untrusted.ts).
    expect(unwrap(String(buildContent('总结一下 notes.md 的要点', r.attachments)))).toBe(
      `总结一下 notes.md 的要点\n\n<document name="notes.md" path="${join(dir, 'notes.md')}">\n# 会议记录\n- 事项一\n</document>`,
    );
  });

  it('an empty file is named and not attached (no paid call about nothing)', async () => {
    writeFileSync(join(dir, 'empty.md'), '');
    writeFileSync(join(dir, 'blank.txt'), ' \n\n');
    const r = await attachFromMessage('总结 empty.md blank.txt', env());
    expect(r.attachments.documents).toEqual([]);
    expect(notes).toEqual([
      'empty.md is empty: it was not attached.',
      'blank.txt is empty: it was not attached.',
    ]);
  });

  it('knows when the message is only file references (kept for the next message)', async () => {
    writeFileSync(join(dir, 'a.txt'), 'A');
    writeFileSync(join(dir, 'b c.txt'), 'B');
    const r = await attachFromMessage(`a.txt '${join(dir, 'b c.txt')}'`, env());
    expect(r.onlyFiles).toBe(true);
    expect(r.attachments.names).toEqual(['a.txt', 'b c.txt']);
  });

  it('a file name glued inside Chinese text is not mistaken for a files-only message', async () => {
    writeFileSync(join(dir, 'report.docx'), 'x');
    const text = '帮我总结report.docx的要点';
    const matches = detectPaths(text, { cwd: dir, home: dir, isFile: (p) => statSync(p).isFile() });
    expect(remainder(text, matches)).toBe('帮我总结的要点');
  });

  it('reads a PDF without a text layer by OCR (whose price env.ocr asks), and attaches its text', async () => {
    writeFileSync(join(dir, 'scan.pdf'), '%PDF-1.4');
    const noText = Object.assign(new Error('no text layer'), { code: 'no_text_layer' });
    const read: string[] = [];
    const r = await attachFromMessage(
      'what does scan.pdf say',
      env({
        readDocument: async () => {
          throw noText;
        },
        ocr: async (p) => {
          read.push(p);
          return '扫描件的文字';
        },
      }),
    );
    expect(notes[0]).toContain('scan.pdf has no text layer');
    expect(read).toEqual([join(dir, 'scan.pdf')]);
    expect(r.attachments.documents[0]).toContain('扫描件的文字');
  });

  it('attaches nothing when OCR is declined, and says why a file cannot be attached', async () => {
    writeFileSync(join(dir, 'scan.pdf'), '%PDF-1.4');
    writeFileSync(join(dir, 'data.bin'), 'x');
    const r = await attachFromMessage(
      'scan.pdf and data.bin',
      env({
        readDocument: async (p) => {
          throw Object.assign(new Error(p.endsWith('.pdf') ? 'no text' : 'This is a binary file'), {
            code: p.endsWith('.pdf') ? 'no_text_layer' : 'binary',
          });
        },
        // The price was asked and declined: nothing was read.
        ocr: async () => undefined,
      }),
    );
    expect(r.attachments.documents).toEqual([]);
    // The reader's words are for the model; the person gets the reason in their language.
    expect(notes).toEqual([
      'scan.pdf has no text layer (it looks scanned): it can be read with OCR.',
      'scan.pdf not attached.',
      'Could not attach data.bin: it is not a document zhi can read (an archive, program, media or encrypted file)',
    ]);
  });

  it("a reader's ToolError, English written for the model, is not what the person reads", async () => {
    writeFileSync(join(dir, 'odd.pdf'), '%PDF-1.4');
    await attachFromMessage(
      'odd.pdf',
      env({
        readDocument: async () => {
          throw new ToolError('The PDF is damaged; tell the user and try file_read on another file.');
        },
      }),
    );
    expect(notes.join('\n')).not.toContain('tell the user');
    expect(notes.join('\n')).toContain('zhi --debug');
  });

  it('sends images as image parts when vision is available', async () => {
    writeFileSync(join(dir, 'photo.png'), 'png');
    const r = await attachFromMessage(
      '这张图里是什么 photo.png',
      env({
        imagePart: async () => ({ type: 'image_url', image_url: { url: 'data:image/png;base64,cG5n' } }),
        visionModel: 'glm-4.6v-flash',
      }),
    );
    expect(buildContent('这张图里是什么 photo.png', r.attachments)).toEqual([
      { type: 'text', text: '这张图里是什么 photo.png' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,cG5n' } },
    ]);
    expect(notes[0]).toContain('glm-4.6v-flash');
  });
});
