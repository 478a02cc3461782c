import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, runZhi, tempDir } from '../helpers/zhi.js';

const homes: string[] = [];
afterEach(() => cleanup(...homes.splice(0)));
const newHome = () => {
  const h = tempDir();
  homes.push(h);
  return h;
};

describe('zhi config', () => {
  it('set, get, show (key masked), path; file is 0600', async () => {
    const home = newHome();
    const env = { ZHI_API_KEY: undefined };
    expect(
      (
        await runZhi({
          args: ['config', 'set', 'api_key', '0123456789abcdef0123456789abcdef.Secret1'],
          home,
          env,
        })
      ).code,
    ).toBe(0);
    expect((await runZhi({ args: ['config', 'set', 'max_turns', '12'], home, env })).code).toBe(0);
    expect((await runZhi({ args: ['config', 'get', 'max_turns'], home, env })).stdout).toBe('12\n');
    const show = await runZhi({ args: ['config', 'show'], home, env });
    expect(show.stdout).toContain('0123…t1'); // first 4 and last 2 at most (issue 11)
    expect(show.stdout).not.toContain('Secret1');
    const path = (await runZhi({ args: ['config', 'path'], home, env })).stdout.trim();
    expect(path).toBe(join(home, 'config.yaml'));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toContain('max_turns: 12');
  });

  it('refuses a bad value typed on the command line, naming the key, and an unknown key: both exit 2', async () => {
    const home = newHome();
    const bad = await runZhi({ args: ['config', 'set', 'max_turns', 'many'], home });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('max_turns');
    const language = await runZhi({ args: ['config', 'set', 'language', 'fr'], home });
    expect(language.code).toBe(2);
    expect(language.stderr).toContain('language');
    const model = await runZhi({ args: ['config', 'set', 'default_model', 'glm 5'], home });
    expect(model.code).toBe(2);
    expect(model.stderr).toContain('Unknown model "glm 5"');
    // A well-formed id zhi does not know is kept, with a warning (it may be newer than zhi).
    const newer = await runZhi({ args: ['config', 'set', 'default_model', 'glm-5.9'], home });
    expect(newer.code).toBe(0);
    expect(newer.stderr).toContain("glm-5.9 is not in zhi's model list");
    const unknown = await runZhi({ args: ['config', 'set', 'colour', 'red'], home });
    expect(unknown.code).toBe(2);
    // A bad value given as a flag is a bad argument too.
    const flag = await runZhi({ args: ['--language', 'fr', '-c', 'hi'], home });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--language');
    // The same bad value in the file is a configuration error: exit 3, and nothing was saved.
    expect(readFileSync(join(home, 'config.yaml'), 'utf8')).not.toMatch(/many|fr|glm 5/);
    writeFileSync(join(home, 'config.yaml'), 'max_turns: many\n');
    const broken = await runZhi({ args: ['-c', 'hi'], home });
    expect(broken.code).toBe(3);
    expect(broken.stderr).toContain('max_turns');
  });

  it('a corrupt config is backed up, reported, and the key survives', async () => {
    const home = newHome();
    writeFileSync(join(home, 'config.yaml'), 'api_key: 0123456789abcdef0123456789abcdef.Secret2\n  bad: [\n');
    const r = await runZhi({ args: ['config', 'show'], home, env: { ZHI_API_KEY: undefined } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('backed it up');
    expect(r.stderr).toContain('API key was recovered');
    expect(r.stdout).toContain('0123…t2');
    expect(readdirSync(home).some((f) => f.startsWith('config.yaml.corrupt-'))).toBe(true);
  });

  it('reset keeps a backup and starts from defaults', async () => {
    const home = newHome();
    await runZhi({ args: ['config', 'set', 'default_model', 'glm-4.7'], home });
    const r = await runZhi({ args: ['config', 'reset'], home });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('config.yaml.bak');
    expect(readFileSync(join(home, 'config.yaml.bak'), 'utf8')).toContain('glm-4.7');
    expect((await runZhi({ args: ['config', 'get', 'default_model'], home })).stdout).toBe('glm-5\n');
  });

  it('a bad value in the environment is named', async () => {
    const r = await runZhi({ args: ['-c', 'x'], home: newHome(), env: { ZHI_LANGUAGE: 'klingon' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('$ZHI_LANGUAGE');
  });
});

describe('a base URL where nothing answers', () => {
  it('names the host and says "connection refused", with what to try, in en and zh (exit 1)', async () => {
    // A port we opened and closed: nothing listens there.
    const server = createServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    await new Promise((done) => server.close(done));
    const baseUrl = `http://127.0.0.1:${port}/api/paas/v4`;
    const en = await runZhi({ args: ['-c', 'hi'], home: newHome(), baseUrl });
    expect(en.code).toBe(1);
    expect(en.stderr).toContain(`Could not connect to 127.0.0.1:${port}: connection refused.`);
    expect(en.stderr).toContain('Nothing is listening at that address and port');
    expect(en.stderr).toContain('zhi config get base_url');
    expect(en.stderr).not.toContain('fetch failed');
    const zh = await runZhi({ args: ['-c', 'hi'], home: newHome(), baseUrl, env: { ZHI_LANGUAGE: 'zh' } });
    expect(zh.code).toBe(1);
    expect(zh.stderr).toContain(`无法连接到 127.0.0.1:${port}：连接被拒绝。`);
    expect(zh.stderr).toContain('该地址和端口上没有服务在监听');
  });
});

describe('zhi --version / --help', () => {
  it('prints the version and help', async () => {
    const v = await runZhi({ args: ['--version'] });
    // A checkout runs "from source"; the npm package and the executable say so (scripts/smoke-install.mjs).
    expect(v.stdout).toMatch(/^\d+\.\d+\.\d+ \(from source, Node v\d+\.\d+\.\d+\)\n$/);
    const vz = await runZhi({ args: ['--version'], env: { ZHI_LANGUAGE: 'zh' } });
    expect(vz.stdout).toMatch(/^\d+\.\d+\.\d+（源码运行，Node v[\d.]+）\n$/);
    const h = await runZhi({ args: ['--help'] });
    expect(h.stdout).toContain('zhi run <skill>');
    const hz = await runZhi({ args: ['--help', '--language', 'zh'] });
    expect(hz.stdout).toContain('用法');
  });
});
