// A local fake Zhipu API for trying zhi by hand (no key, no network, no cost).
//
//   node scripts/fake-server.mjs [--port 8787] [--script replies.json] [--delay 30]
//   ZHI_BASE_URL=<printed url> ZHI_API_KEY=<printed key> node dist/zhi.js
//
// Bundles test/fake-zhipu/server.ts with esbuild on the fly. Without --script every message gets
// a demo answer: a streamed Chinese reply with reasoning, a heading, a list and a Markdown table
// (or an English one when the message has no Chinese). --script takes a JSON array of replies in
// the FakeZhipu format ({"kind":"text","text":"…"}, {"kind":"tools","calls":[…]}, …), served in
// order, then the demo answer again.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const port = Number(opt('port', '0'));
const delayMs = Number(opt('delay', '25'));
const scriptFile = opt('script', undefined);

mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
const tmp = mkdtempSync(join(root, 'node_modules/.cache/zhi-fake-'));
let mod;
try {
  await build({
    entryPoints: [join(root, 'test/fake-zhipu/server.ts')],
    outfile: join(tmp, 'server.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
  mod = await import(pathToFileURL(join(tmp, 'server.mjs')).href);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

const ZH_ANSWER = `## 三种常见文件格式对比

下面是 **Word**、**Excel** 和 **PDF** 的简单比较，方便你选择合适的格式：

| 格式 | 适合做什么 | 能否编辑 | 常见扩展名 |
|:-----|:-----------|:--------:|-----------:|
| Word | 合同、报告、长篇文字 | 能 | .docx |
| Excel | 表格、统计、财务数据 | 能 | .xlsx |
| PDF | 正式发布、打印、归档 | 较难 | .pdf |

建议：

1. 需要多人修改的文档用 **Word**；
2. 需要计算和筛选的数据用 **Excel**；
3. 最终定稿发给别人时导出为 **PDF**，排版不会变。

如果你有具体的文件，可以直接把文件拖进终端，我来帮你处理。`;

const EN_ANSWER = `## Three common file formats

| Format | Good for | Editable | Extension |
|:-------|:---------|:--------:|----------:|
| Word | contracts, reports | yes | .docx |
| Excel | tables, figures | yes | .xlsx |
| PDF | sharing, printing | hardly | .pdf |

Tip: keep the **Word** or **Excel** original, and send a **PDF** when it is final.`;

function lastUserText(body) {
  const user = [...(body?.messages ?? [])].reverse().find((m) => m.role === 'user');
  if (!user) return '';
  return typeof user.content === 'string' ? user.content : user.content.map((p) => p.text ?? '').join(' ');
}

const fake = new mod.FakeZhipu();
fake.fallback = (req) => {
  const zh = /[\u4e00-\u9fff]/.test(lastUserText(req.body));
  return {
    kind: 'text',
    reasoning: zh
      ? '用户想了解常见文件格式的区别。我用一个表格来对比，再给出建议。'
      : 'The user wants a comparison; a table works best.',
    text: zh ? ZH_ANSWER : EN_ANSWER,
    chunk: 6,
    delayMs,
  };
};
if (scriptFile) fake.script(...JSON.parse(readFileSync(scriptFile, 'utf8')));
const url = await fake.start(port);
process.stdout.write(`Fake Zhipu API listening.\n  ZHI_BASE_URL=${url}\n  ZHI_API_KEY=${mod.TEST_KEY}\n`);
process.on('SIGINT', () => fake.stop().then(() => process.exit(0)));
process.on('SIGTERM', () => fake.stop().then(() => process.exit(0)));
