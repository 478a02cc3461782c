import { defineMessages } from '../define.js';

// Agent Skills (SKILL.md) by the specification: front matter rules, skills in chat, sharing.
export const agentskills = defineMessages(
  {
    'skills.source.project': 'project',
    'skills.limit.tool': 'The skill {skill} allows only these tools: {tools}. {name} was not run.',
    'skills.limit.shell':
      'The skill {skill} allows only commands that start with {scopes}. This one was not run: {command}',
    'skills.share.exists':
      'The file {file} already exists; zhi never replaces a file. Give another name after the skill name.',
    'skills.share.exported':
      'Exported the skill {name}, version {version}, to {file} ({count} files; tools: {tools}).',
    'skills.share.exportedOne':
      'Exported the skill {name}, version {version}, to {file} (1 file; tools: {tools}).',
    'skills.share.bad': 'The skill package {source} cannot be imported.',
    'skills.share.invalid': 'The skill in {source} is not valid.',
    'skills.share.taken': 'You already have a skill called {name} ({file}).',
    'skills.share.tryDelete': 'Delete it first with `zhi skill delete {name}`, or keep yours.',
    'skills.share.header': 'Skill {name}, version {version}',
    'skills.share.headerHash':
      'Skill {name}, version {version} (made from its content: the author gave none)',
    'skills.share.tools': 'tools it uses: {tools}',
    'skills.share.files': '{count} files: {files}',
    'skills.share.file': '1 file: {files}',
    'skills.share.question':
      'Install the skill {name}? It stays untrusted: its first run that can write files or run commands will ask.',
    'skills.share.needYes': 'Installing the skill {name} needs a confirmation, and no one can be asked here.',
    'skills.share.tryYes': 'Read the summary above, then add --yes: `zhi skill import {source} --yes`.',
    'skills.share.kept': 'Not installed.',
    'skills.share.replacesBuiltin':
      'It takes the place of the built-in skill {name}: `zhi run {name}` will run this one. To get the built-in one back, delete it with `zhi skill delete {name}`.',
    'skills.share.installed':
      'Installed the skill {name} in {file}. It is not trusted yet: its first run asks.',
    'skills.spec.name':
      'the name "{name}" breaks the Agent Skills rules (lowercase letters, digits and single hyphens, not at the start or end, at most 64 characters); it is loaded as "{used}"',
    'skills.spec.folder':
      'the name "{name}" differs from the skill\'s folder "{folder}" (the Agent Skills rules want them the same); it is loaded as "{name}"',
    'skills.spec.description':
      'the description is {length} characters long, over the Agent Skills limit of {max}; it is loaded whole',
    'skills.other.have': 'already in zhi: {file}',
    'skills.other.unknown': 'zhi does not know the client "{client}".',
    'skills.other.tryClients': 'Give one of: {clients} (for example `zhi skill import --from claude`).',
    'skills.other.none': 'No skills found in {folder}.',
    'skills.other.header': 'Skills of {client} in {folder}:',
    'skills.other.question':
      'Copy the skills above into zhi ({count})? They stay untrusted: their first run that can write files or run commands asks.',
    'skills.other.needYes':
      'Copying the skills above ({count}) needs a confirmation, and no one can be asked here.',
    'skills.other.tryYes': 'Read the list above, then add --yes: `zhi skill import --from {client} --yes`.',
    'skills.other.notCopied': '{name} was not copied: {reason}',
    'skills.other.copied':
      'Copied into {folder}: {names}. They are not trusted yet: their first run that can write files or run commands asks.',
    'skills.other.notice':
      'Skills of {client} that zhi does not have are in {folder} ({count}). `{command}` lists them and copies them after you say yes. (Said once.)',
    'skills.warn.modelFallback':
      'the skill {skill} asks for the model "{model}", which zhi does not know; it runs on {fallback} instead',
  },
  {
    'skills.source.project': '项目',
    'skills.limit.tool': '技能 {skill} 只允许使用这些工具：{tools}。{name} 没有运行。',
    'skills.limit.shell': '技能 {skill} 只允许以 {scopes} 开头的命令。这条命令没有运行：{command}',
    'skills.share.exists': '文件 {file} 已存在；zhi 从不覆盖文件。请在技能名后给出另一个文件名。',
    'skills.share.exported':
      '已将技能 {name}（版本 {version}）导出到 {file}（{count} 个文件；工具：{tools}）。',
    'skills.share.exportedOne': '已将技能 {name}（版本 {version}）导出到 {file}（1 个文件；工具：{tools}）。',
    'skills.share.bad': '无法导入技能包 {source}。',
    'skills.share.invalid': '{source} 中的技能无效。',
    'skills.share.taken': '你已经有一个名为 {name} 的技能（{file}）。',
    'skills.share.tryDelete': '先用 `zhi skill delete {name}` 删除它，或保留你自己的技能。',
    'skills.share.header': '技能 {name}，版本 {version}',
    'skills.share.headerHash': '技能 {name}，版本 {version}（作者未给出版本，由内容生成）',
    'skills.share.tools': '使用的工具：{tools}',
    'skills.share.files': '{count} 个文件：{files}',
    'skills.share.file': '1 个文件：{files}',
    'skills.share.question': '安装技能 {name} 吗？它将保持未受信任：第一次运行需要写文件或执行命令时会询问。',
    'skills.share.needYes': '安装技能 {name} 需要确认，而这里无法询问。',
    'skills.share.tryYes': '阅读上面的摘要后加上 --yes：`zhi skill import {source} --yes`。',
    'skills.share.kept': '未安装。',
    'skills.share.replacesBuiltin':
      '它将取代内置技能 {name}：`zhi run {name}` 将运行这个技能。要恢复内置技能，用 `zhi skill delete {name}` 删除它。',
    'skills.share.installed': '已将技能 {name} 安装到 {file}。它尚未受信任：第一次运行时会询问。',
    'skills.spec.name':
      '名称 “{name}” 不符合 Agent Skills 规范（只能使用小写字母、数字和单个连字符，不能以连字符开头或结尾，最多 64 个字符）；按 “{used}” 加载',
    'skills.spec.folder':
      '名称 “{name}” 与技能文件夹名 “{folder}” 不同（Agent Skills 规范要求二者相同）；按 “{name}” 加载',
    'skills.spec.description': '描述长 {length} 个字符，超过 Agent Skills 规范的上限 {max}；仍完整加载',
    'skills.other.have': 'zhi 中已有：{file}',
    'skills.other.unknown': 'zhi 不认识客户端 “{client}”。',
    'skills.other.tryClients': '请给出其中之一：{clients}（例如 `zhi skill import --from claude`）。',
    'skills.other.none': '{folder} 中没有找到技能。',
    'skills.other.header': '{client} 在 {folder} 中的技能：',
    'skills.other.question':
      '把这 {count} 个技能复制到 zhi 吗？它们将保持未受信任：第一次运行需要写文件或执行命令时会询问。',
    'skills.other.needYes': '复制 {count} 个技能需要确认，而这里无法询问。',
    'skills.other.tryYes': '阅读上面的列表后加上 --yes：`zhi skill import --from {client} --yes`。',
    'skills.other.notCopied': '{name} 没有复制：{reason}',
    'skills.other.copied':
      '已复制到 {folder}：{names}。它们尚未受信任：第一次运行需要写文件或执行命令时会询问。',
    'skills.other.notice':
      '{client} 在 {folder} 中有 {count} 个 zhi 还没有的技能。运行 `{command}` 可以列出它们，经你同意后复制过来。（只提示这一次。）',
    'skills.warn.modelFallback':
      '技能 {skill} 要求使用模型 “{model}”，zhi 不认识该模型；改用 {fallback} 运行',
  },
);
