import { defineMessages } from '../define.js';

export const models = defineMessages(
  {
    'models.title': 'Models on {platform} (prices in {currency} per million tokens, input/output):',
    'models.col.id': 'model',
    'models.col.price': 'price',
    'models.col.about': 'about',
    'models.note':
      '≈ a price zhi could not confirm from the platform (the cost shown is an estimate) · + the price rises for long prompts or answers · free: no charge. Any other model id works too: zhi warns once and does not count its cost.',
    'models.remote.none':
      "Your account's own model list is not available (no key, or the platform does not offer it).",
    'models.remote.all': 'Your account lists {n} models; zhi knows all of them.',
    'models.remote.extra': "Your account lists {n} models; not in zhi's list (usable with --model): {models}",
    'models.try.syntax': 'Usage: zhi models',
    'search.sources': 'Sources',
  },
  {
    'models.title': '{platform} 上的模型（价格单位：{currency} / 百万 tokens，输入/输出）：',
    'models.col.id': '模型',
    'models.col.price': '价格',
    'models.col.about': '说明',
    'models.note':
      '≈ 表示 zhi 无法从平台确认的价格（显示的费用为估算）· + 表示长输入或长输出时价格更高 · 免费：不收费。也可以使用其他任何模型名：zhi 会提醒一次，并且不统计它的费用。',
    'models.remote.none': '无法获取你账户自己的模型列表（没有密钥，或平台不提供）。',
    'models.remote.all': '你的账户列出了 {n} 个模型，zhi 全部认识。',
    'models.remote.extra': '你的账户列出了 {n} 个模型；不在 zhi 列表中的（可用 --model 使用）：{models}',
    'models.try.syntax': '用法：zhi models',
    'search.sources': '来源',
  },
);
