import { defineMessages } from '../define.js';

// Refusals that keep files and secrets safe (paths the model gives, secrets, web_fetch, names).
export const safety = defineMessages(
  {
    'safety.outside':
      'Refused to read "{path}": it is outside the current folder, and files the model names must stay inside it. To use that file, give it to zhi yourself (for example on the command line), or start zhi in its folder.',
    'safety.secret.zhi':
      'Refused to read "{path}": it is one of zhi\'s own files (settings, API key, history, sessions or logs). Secrets never leave this computer. If you really mean to share it, attach the file yourself.',
    'safety.secret.credentials':
      'Refused to read "{path}": it is in a credentials folder (SSH, GPG, cloud or package-registry keys). Secrets never leave this computer. If you really mean to share it, attach the file yourself.',
    'safety.secret.env':
      'Refused to read "{path}": .env files usually hold passwords and keys. Secrets never leave this computer. If you really mean to share it, attach the file yourself.',
    'safety.secret.private_key':
      'Refused to read "{path}": it holds a private key. Secrets never leave this computer. If you really mean to share it, attach the file yourself.',
    'safety.secret.browser':
      'Refused to read "{path}": it is in a browser profile or keychain folder (saved passwords, cookies). Secrets never leave this computer. If you really mean to share it, attach the file yourself.',
    'safety.secret.api_key':
      'Refused to read "{path}": it contains your zhi API key. Secrets never leave this computer. If you really mean to share it, attach the file yourself.',
  },
  {
    'safety.outside':
      '已拒绝读取“{path}”：它在当前文件夹之外，模型指定的文件必须位于当前文件夹内。如需使用该文件，请自己把它交给 zhi（例如写在命令行上），或在它所在的文件夹里启动 zhi。',
    'safety.secret.zhi':
      '已拒绝读取“{path}”：这是 zhi 自己的文件（设置、API 密钥、历史、会话或日志）。机密信息绝不离开这台电脑。如果你确实要分享它，请自己附加这个文件。',
    'safety.secret.credentials':
      '已拒绝读取“{path}”：它位于凭据文件夹中（SSH、GPG、云服务或软件包仓库的密钥）。机密信息绝不离开这台电脑。如果你确实要分享它，请自己附加这个文件。',
    'safety.secret.env':
      '已拒绝读取“{path}”：.env 文件通常保存密码和密钥。机密信息绝不离开这台电脑。如果你确实要分享它，请自己附加这个文件。',
    'safety.secret.private_key':
      '已拒绝读取“{path}”：它包含私钥。机密信息绝不离开这台电脑。如果你确实要分享它，请自己附加这个文件。',
    'safety.secret.browser':
      '已拒绝读取“{path}”：它位于浏览器配置或钥匙串文件夹中（保存的密码、Cookie）。机密信息绝不离开这台电脑。如果你确实要分享它，请自己附加这个文件。',
    'safety.secret.api_key':
      '已拒绝读取“{path}”：它包含你的 zhi API 密钥。机密信息绝不离开这台电脑。如果你确实要分享它，请自己附加这个文件。',
  },
);
