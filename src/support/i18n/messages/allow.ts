import { defineMessages } from '../define.js';

// Lasting allow rules (`allow:` in config.yaml, `zhi config allow`, `/status`) and house rules' notes.
export const allow = defineMessages(
  {
    'allow.bad': 'An allow rule in {file} ({where}) was left out: {problem}. Its calls ask as before.',
    'allow.where': 'allow:',
    'allow.whereLine': 'line {line}',
    'allow.bad.not_list': 'allow: takes a list of rules (- tool: …, - shell: …, - mcp: …)',
    'allow.bad.not_map': 'a rule is tool:, shell: or mcp: with its value (- shell: git status)',
    'allow.bad.no_kind': 'a rule needs tool:, shell: or mcp:',
    'allow.bad.two_kinds': 'a rule is either shell: or mcp: (or tool: alone), not both',
    'allow.bad.unknown_field': '{field}: is not part of this kind of rule',
    'allow.bad.bad_value': '{field}: has a value zhi cannot use',
    'allow.bad.bad_value.shell': 'shell: is one plain command (no ; & | < > $ ` or brackets, quotes closed)',
    'allow.bad.bad_value.host': 'host: is a site name such as docs.example.com',
    'allow.warn.notTool':
      "An allow rule in {file} names {name}, which is not one of zhi's tools ({tools}), so it allows nothing. An MCP tool is allowed with - mcp: <server>.",
    'allow.warn.wholeKind':
      'The allow rule "tool: {name}" in {file} allows nothing: {name} has rules of its own (- shell: git status).',
    'allow.none': 'No allow rules. Add one with: zhi config allow add shell git status',
    'allow.listHeader': 'Allow rules in {file} (each call they cover runs without a question):',
    'allow.listBad': '{entry} — left out: {problem}',
    'allow.added': 'Added: {rule}',
    'allow.removed': 'Removed: {rule}',
    'allow.usage':
      'Usage: zhi config allow [list] | add tool <name> [<host>] | add shell <command…> | add mcp <server> [<tool>] | remove <number>',
    'allow.err.notTool': "{name} is not one of zhi's tools.",
    'allow.err.notToolWhy':
      'Its tools are: {tools}. A shell command or an MCP server has its own kind of rule.',
    'allow.err.wholeKind': 'A tool: rule cannot allow every {name} call.',
    'allow.err.wholeKindWhy':
      'Every command or every tool of every server is too wide for one rule; name the command or the server.',
    'allow.try.shell': 'zhi config allow add shell git status',
    'allow.try.mcp': 'zhi config allow add mcp <server> [<tool>]',
    'allow.err.badRule': 'That rule cannot be used: {problem}.',
    'allow.err.noSuch': 'There is no allow rule number {n}.',
    'allow.err.noSuchWhy': 'config.yaml has {count} rules; zhi config allow list numbers them.',
    'allow.exists': 'That rule is there already: {rule}',
    'allow.status': 'Allowed by config',
    'allow.statusNone': 'none (allow: in config.yaml)',
    'house.cut':
      'The house rules in {file} are longer than {chars} characters: only the first {chars} reach the model. Shorten the file or move parts into files it imports (@file).',
    'house.skipped':
      'The house rules in {file} were left out: the house rules here already take {chars} characters. Shorten the files nearer the root.',
    'house.import': '{file} imports @{target}, which was not read: {why}.',
    'house.import.outside': 'it is outside the folder of these rules',
    'house.import.refused':
      'zhi does not read it (a secret, a hidden file or a link leading out of the folder)',
    'house.import.missing': 'there is no such file',
    'house.import.depth': 'imports go at most 3 deep',
    'house.import.cycle': 'it is already being imported (a cycle)',
  },
  {
    'allow.bad': '{file} 中的一条允许规则（{where}）未被使用：{problem}。它涉及的调用仍会询问。',
    'allow.where': 'allow:',
    'allow.whereLine': '第 {line} 行',
    'allow.bad.not_list': 'allow: 应是规则列表（- tool: …、- shell: …、- mcp: …）',
    'allow.bad.not_map': '每条规则是 tool:、shell: 或 mcp: 加上它的值（- shell: git status）',
    'allow.bad.no_kind': '规则需要 tool:、shell: 或 mcp:',
    'allow.bad.two_kinds': '一条规则只能是 shell: 或 mcp:（或单独的 tool:），不能同时是两种',
    'allow.bad.unknown_field': '{field}: 不属于这种规则',
    'allow.bad.bad_value': '{field}: 的值无法使用',
    'allow.bad.bad_value.shell': 'shell: 应是一条简单命令（不含 ; & | < > $ ` 或括号，引号须成对）',
    'allow.bad.bad_value.host': 'host: 应是网站名，例如 docs.example.com',
    'allow.warn.notTool':
      '{file} 中的一条允许规则写的是 {name}，它不是 zhi 的工具（{tools}），因此不允许任何调用。MCP 工具请用 - mcp: <服务器>。',
    'allow.warn.wholeKind':
      '{file} 中的允许规则“tool: {name}”不允许任何调用：{name} 有自己的规则（- shell: git status）。',
    'allow.none': '没有允许规则。可以这样添加：zhi config allow add shell git status',
    'allow.listHeader': '{file} 中的允许规则（它们涵盖的调用不再询问）：',
    'allow.listBad': '{entry} —— 未使用：{problem}',
    'allow.added': '已添加：{rule}',
    'allow.removed': '已删除：{rule}',
    'allow.usage':
      '用法：zhi config allow [list] | add tool <名称> [<网站>] | add shell <命令…> | add mcp <服务器> [<工具>] | remove <编号>',
    'allow.err.notTool': '{name} 不是 zhi 的工具。',
    'allow.err.notToolWhy': 'zhi 的工具有：{tools}。shell 命令和 MCP 服务器各有自己的规则。',
    'allow.err.wholeKind': 'tool: 规则不能允许所有 {name} 调用。',
    'allow.err.wholeKindWhy': '“所有命令”或“所有服务器的所有工具”对一条规则来说太宽；请写明命令或服务器。',
    'allow.try.shell': 'zhi config allow add shell git status',
    'allow.try.mcp': 'zhi config allow add mcp <服务器> [<工具>]',
    'allow.err.badRule': '这条规则无法使用：{problem}。',
    'allow.err.noSuch': '没有第 {n} 条允许规则。',
    'allow.err.noSuchWhy': 'config.yaml 中有 {count} 条规则；zhi config allow list 会给它们编号。',
    'allow.exists': '这条规则已经存在：{rule}',
    'allow.status': '配置中允许',
    'allow.statusNone': '无（config.yaml 中的 allow:）',
    'house.cut':
      '{file} 中的规则超过 {chars} 个字符：只有前 {chars} 个字符会交给模型。请精简该文件，或把部分内容移到它导入的文件中（@file）。',
    'house.skipped': '{file} 中的规则未被使用：这里的规则已占满 {chars} 个字符。请精简更上层目录中的文件。',
    'house.import': '{file} 导入的 @{target} 未被读取：{why}。',
    'house.import.outside': '它在这些规则所在的文件夹之外',
    'house.import.refused': 'zhi 不读取它（密钥文件、隐藏文件，或指向文件夹外的链接）',
    'house.import.missing': '没有这个文件',
    'house.import.depth': '导入最多嵌套 3 层',
    'house.import.cycle': '它已在导入之中（循环导入）',
  },
);
