/**
 * Speech: a recording given to a skill is transcribed with GLM-ASR through the platform seam —
 * cut into pieces the API accepts (≤ 30 s), sent as multipart with the documented fields, each
 * piece after the first with the transcript so far as context — after the price is shown and
 * agreed; the transcript reaches the skill's model call. Without consent nothing is sent.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findFfmpeg } from '../../src/tools/asr/ffmpeg.js';
import { digest } from '../fake-zhipu/platform-readers.js';
import type { RecordedRequest } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { makeWav } from '../helpers/media.js';
import { KEY, promptFor } from '../helpers/pty.js';

const e = useE2E();
const FFMPEG = findFfmpeg();
const { fake } = e;

const asrRequests = () => fake.requests.filter((r) => r.path.endsWith('/audio/transcriptions'));
const form = (r: RecordedRequest) =>
  new Response(r.bytes, { headers: { 'Content-Type': String(r.headers['content-type']) } }).formData();

describe('speech (GLM-ASR)', () => {
  it('zhi run meeting-notes rec.wav --auto: 70 s become three ≤30 s requests and the transcript reaches the model', async () => {
    writeFileSync(join(e.cwd, 'rec.wav'), makeWav(70));
    fake.fallback = () => ({ kind: 'text', text: '# Meeting minutes: test' });
    const r = await e.zhi(['run', 'meeting-notes', 'rec.wav', '--auto']);
    expect(r.code, r.stderr).toBe(0);
    // The price before anything is sent: 70 s at ¥0.06 a minute.
    expect(r.stderr).toContain('1:10');
    expect(r.stderr).toContain('¥0.07');

    const sent = asrRequests();
    expect(sent).toHaveLength(3);
    const texts: string[] = [];
    for (const [i, req] of sent.entries()) {
      expect(String(req.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
      const f = await form(req);
      expect(f.get('model')).toBe('glm-asr-2512');
      expect(f.get('stream')).toBe('false');
      const file = f.get('file') as File;
      expect(file.name).toMatch(/\.wav$/);
      const bytes = Buffer.from(await file.arrayBuffer());
      expect(bytes.toString('latin1', 0, 4)).toBe('RIFF');
      const seconds = bytes.readUInt32LE(40) / 16000;
      expect(seconds).toBeLessThanOrEqual(30);
      // Pieces after the first carry what was said before as context.
      if (i === 0) expect(f.get('prompt')).toBeNull();
      else expect(String(f.get('prompt'))).toContain(texts[i - 1]);
      texts.push(`speech ${digest(bytes)} ${seconds.toFixed(1)}s`);
    }
    const chat = fake.chatBodies()[0];
    const user = String(chat.messages.find((m: { role: string }) => m.role === 'user').content);
    for (const t of texts) expect(user).toContain(t);
    expect(user).toContain('audio recording');
  });

  it('without --yes or --auto and no terminal, nothing is sent and the error says how to agree', async () => {
    writeFileSync(join(e.cwd, 'rec.wav'), makeWav(5));
    const r = await e.zhi(['run', 'meeting-notes', 'rec.wav']);
    expect(r.code).not.toBe(0);
    expect(asrRequests()).toHaveLength(0);
    expect(fake.chatBodies()).toHaveLength(0);
    expect(r.stderr).toContain('--yes');
    expect(r.stderr).toContain('¥0.0050');
  });

  it('--yes agrees to the price; ZHI_LANGUAGE=zh says it in Chinese', async () => {
    writeFileSync(join(e.cwd, '录音.wav'), makeWav(5));
    const r = await e.zhi(['run', 'meeting-notes', '录音.wav', '--yes'], { env: { ZHI_LANGUAGE: 'zh' } });
    expect(r.code, r.stderr).toBe(0);
    expect(asrRequests()).toHaveLength(1);
    expect(r.stderr).toContain('音频时长 0:05');
  });

  it('zhi -c "summarise @rec.wav" --yes: the recording is transcribed and its transcript sent with the question', async () => {
    writeFileSync(join(e.cwd, 'rec.wav'), makeWav(40));
    const r = await e.zhi(['-c', 'summarise @rec.wav', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('0:40');
    expect(r.stderr).toContain('rec.wav: transcribed');
    const sent = asrRequests();
    expect(sent).toHaveLength(2);
    const bytes = Buffer.from(await ((await form(sent[0]!)).get('file') as File).arrayBuffer());
    const user = String(
      fake.chatBodies()[0].messages.find((m: { role: string }) => m.role === 'user').content,
    );
    expect(user.startsWith('summarise @rec.wav')).toBe(true);
    expect(user).toContain('<document name="rec.wav"');
    expect(user).toContain(`speech ${digest(bytes)}`);
  });

  it('zhi -c naming a recording, with no terminal and no --yes: nothing is sent, the error names --yes (in Chinese too)', async () => {
    writeFileSync(join(e.cwd, '会议.wav'), makeWav(5));
    const r = await e.zhi(['-c', '总结 会议.wav'], { env: { ZHI_LANGUAGE: 'zh' } });
    expect(r.code).not.toBe(0);
    expect(asrRequests()).toHaveLength(0);
    expect(fake.chatBodies()).toHaveLength(0);
    expect(r.stderr).toContain('--yes');
    expect(r.stderr).toContain('音频时长 0:05');
  });

  it('a recording attached in the REPL: the price is asked by the one consent rule; no sends nothing, yes transcribes', async () => {
    writeFileSync(join(e.cwd, 'rec.wav'), makeWav(5));
    const s = e.pty({ cols: 120, rows: 40 });
    await s.waitFor(promptFor('en'), 10_000);
    let from = s.mark();
    s.write('summarise @rec.wav');
    s.write(KEY.enter);
    await s.waitFor(/0:05[\s\S]*\[Y\/n\]/, 10_000, from);
    from = s.mark();
    s.write('n');
    s.write(KEY.enter);
    await s.waitFor('rec.wav not attached', 10_000, from);
    expect(asrRequests()).toHaveLength(0);
    s.kill();
    const t = e.pty({ cols: 120, rows: 40 });
    await t.waitFor(promptFor('en'), 10_000);
    t.write('summarise @rec.wav');
    t.write(KEY.enter);
    await t.waitFor('[Y/n]', 10_000);
    t.write('y');
    t.write(KEY.enter);
    await t.waitFor('Done:', 10_000);
    expect(t.text()).toContain('rec.wav: transcribed (0:05)');
    expect(asrRequests()).toHaveLength(1);
    t.write(KEY.ctrlD);
    await t.exited();
  });

  it('zhi -c naming a silent recording: said why, and no question is sent', async () => {
    const quiet = makeWav(5);
    quiet.fill(0, 44);
    writeFileSync(join(e.cwd, 'quiet.wav'), quiet);
    const r = await e.zhi(['-c', 'what is said in quiet.wav?', '--yes']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('holds no sound');
    expect(asrRequests()).toHaveLength(0);
    expect(fake.chatBodies()).toHaveLength(0);
  });

  it.skipIf(!FFMPEG)(
    `an .m4a goes through ffmpeg into 16 kHz mono WAV pieces${FFMPEG ? '' : ' (skipped: ffmpeg not installed)'}`,
    async () => {
      writeFileSync(join(e.cwd, 'tone.wav'), makeWav(40));
      execFileSync(FFMPEG!, [
        '-loglevel',
        'error',
        '-i',
        join(e.cwd, 'tone.wav'),
        '-c:a',
        'aac',
        join(e.cwd, 'rec.m4a'),
      ]);
      fake.fallback = () => ({ kind: 'text', text: '# Meeting minutes' });
      const r = await e.zhi(['run', 'meeting-notes', 'rec.m4a', '--yes']);
      expect(r.code, r.stderr).toBe(0);
      const sent = asrRequests();
      expect(sent).toHaveLength(2);
      for (const req of sent) {
        const bytes = Buffer.from(await ((await form(req)).get('file') as File).arrayBuffer());
        expect(bytes.toString('latin1', 8, 12)).toBe('WAVE');
        expect(bytes.readUInt32LE(24)).toBe(16000);
        expect(bytes.readUInt16LE(22)).toBe(1);
      }
    },
  );

  it('an .m4a without ffmpeg is refused before anything is sent, naming ffmpeg', async () => {
    writeFileSync(join(e.cwd, 'rec.m4a'), Buffer.from('\0\0\0\x20ftypM4A \0\0\0\0M4A mp42isom', 'latin1'));
    const r = await e.zhi(['run', 'meeting-notes', 'rec.m4a', '--auto'], { env: { ZHI_FFMPEG: 'off' } });
    expect(r.code).not.toBe(0);
    expect(asrRequests()).toHaveLength(0);
    expect(r.stderr).toContain('ffmpeg');
  });
});

describe('doctor', () => {
  it('says which recordings can be read here', async () => {
    const r = await e.zhi(['doctor'], { env: { ZHI_FFMPEG: 'off' } });
    expect(r.stdout + r.stderr).toContain('Recordings: WAV and MP3 read by zhi');
    expect(r.stdout + r.stderr).toMatch(/ffmpeg, which is not installed/);
  });
});

describe('file parser fallback', () => {
  const parserRequests = () => fake.requests.filter((r) => r.path.endsWith('/files/parser/sync'));
  const xls = () => readFileSync(join(__dirname, '../fixtures/office/sales.xls'));
  const noOffice = { ZHI_SOFFICE: 'off' };

  it('an .xls without LibreOffice and without consent: the price is said, nothing is sent', async () => {
    writeFileSync(join(e.cwd, 'sales.xls'), xls());
    const r = await e.zhi(['run', 'summarize', 'sales.xls'], { env: noOffice });
    expect(r.code).not.toBe(0);
    expect(parserRequests()).toHaveLength(0);
    expect(fake.chatBodies()).toHaveLength(0);
    expect(r.stderr).toContain('file parser');
    expect(r.stderr).toMatch(/about \d+ page\(s\)/);
    expect(r.stderr).toContain('--yes');
  });

  it('with --yes it is read by the parser (prime-sync, XLS) and its text reaches the model', async () => {
    const bytes = xls();
    writeFileSync(join(e.cwd, 'sales.et'), bytes);
    fake.fallback = () => ({ kind: 'text', text: 'A summary.' });
    const r = await e.zhi(['run', 'summarize', 'sales.et', '--yes'], { env: noOffice });
    expect(r.code, r.stderr).toBe(0);
    const sent = parserRequests();
    expect(sent).toHaveLength(1);
    const f = await form(sent[0]!);
    expect(f.get('tool_type')).toBe('prime-sync');
    expect(f.get('file_type')).toBe('XLS');
    expect(Buffer.from(await (f.get('file') as File).arrayBuffer()).equals(bytes)).toBe(true);
    const user = JSON.stringify(fake.chatBodies()[0].messages);
    expect(user).toContain(`parsed ${digest(bytes)}`);
  });
});
