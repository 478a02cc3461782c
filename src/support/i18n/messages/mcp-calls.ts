import { defineMessages } from '../define.js';

// MCP: why a server failed (start or call), and the approval of a call in plain words.
export const mcpCalls = defineMessages(
  {
    'mcp.cause.noCommand': 'the command "{command}" was not found: is it installed, and on PATH?',
    'mcp.cause.noPermission': 'the command "{command}" cannot be run (permission denied)',
    'mcp.cause.refused': 'nothing answers at {url} (connection refused): is the server running?',
    'mcp.cause.noHost': 'the host {host} was not found (check the url, or your network and proxy)',
    'mcp.cause.network': 'could not reach {url}: {detail}',
    'mcp.cause.proxyRefused':
      'the proxy {proxy} refused to connect to {url} (HTTP {status}): ask for that host to be allowed, or add it to NO_PROXY if it is reachable without the proxy',
    'mcp.cause.proxyDown':
      'the proxy {proxy} does not answer (connection refused), so {url} cannot be reached: check HTTPS_PROXY / HTTP_PROXY',
    'mcp.cause.timeout':
      'it did not finish starting within {seconds} s. If it needs longer, give it more with timeout: (seconds, up to 600) under its name in mcp_servers in config.yaml (`zhi config path` says where that is)',
    'mcp.cause.stoppedAtStart': 'it stopped as soon as it started',
    'mcp.cause.http': 'the server at {url} answered HTTP {status}',
    'mcp.cause.login': 'it needs you to sign in: run `zhi mcp login {server}` (it opens your browser)',
    'mcp.cause.unauthorized': 'the server at {url} did not accept the sign-in',
    'mcp.cause.noOAuth':
      'the server at {url} asks for a sign-in (HTTP 401) but offers no OAuth zhi can use: give it a token with headers: { Authorization: "Bearer …" } in its entry',
    'mcp.cause.notMcp':
      'the address {url} answered with a web page, not MCP: check the url (MCP servers usually end in /mcp, or /sse for the older transport)',
    'mcp.cause.serverSaid': '{cause} (the server said: {said})',
    'mcp.approve.wants': '{server} wants to {action}',
    'mcp.approve.run': 'run its tool {tool}',
    'mcp.approve.write': 'write {path}',
    'mcp.approve.writeSized': 'write {path} ({size})',
    'mcp.approve.edit': 'change {path}',
    'mcp.approve.delete': 'delete {path}',
    'mcp.approve.move': 'move {path} to {to}',
    'mcp.approve.create': 'create {path}',
    'mcp.approve.read': 'read {path}',
    'mcp.approve.replaced': '{path} exists: it will be replaced.',
    'mcp.approve.changed': '{path} exists: it will be changed.',
    'mcp.approve.deleted': '{path} exists: it will be deleted.',
    'mcp.approve.names': 'An argument names the existing file {path}: the server may change it.',
    'mcp.approve.rules':
      "MCP tools act under the server's own rules, not zhi's: zhi's folder limits and \"never change an existing file\" do not apply.",
    'mcp.approve.always': 'always allow {tool} this session',
    'mcp.approve.more': '… {count} more lines',
    'mcp.approve.destructive':
      'The server marks {tool} as destructive: it may delete or overwrite data, and that may not be undone.',
    'mcp.approve.readOnly': 'The server marks {tool} as read-only.',
  },
  {
    'mcp.cause.noCommand': '找不到命令 “{command}”：它装好了吗？在 PATH 里吗？',
    'mcp.cause.noPermission': '命令 “{command}” 无法运行（没有权限）',
    'mcp.cause.refused': '{url} 没有应答（连接被拒绝）：服务器在运行吗？',
    'mcp.cause.noHost': '找不到主机 {host}（请检查 url，或网络和代理设置）',
    'mcp.cause.network': '无法连接 {url}：{detail}',
    'mcp.cause.proxyRefused':
      '代理 {proxy} 拒绝连接 {url}（HTTP {status}）：请让管理员放行这个主机；如果不经代理也能访问，可以把它加进 NO_PROXY',
    'mcp.cause.proxyDown':
      '代理 {proxy} 没有应答（连接被拒绝），因此无法访问 {url}：请检查 HTTPS_PROXY / HTTP_PROXY',
    'mcp.cause.timeout':
      '它在 {seconds} 秒内没有完成启动。如果它需要更长时间，请在 config.yaml 的 mcp_servers 中、它的名称下设置 timeout:（秒数，最多 600）（`zhi config path` 可显示该文件的位置）',
    'mcp.cause.stoppedAtStart': '它刚启动就退出了',
    'mcp.cause.http': '{url} 上的服务器返回了 HTTP {status}',
    'mcp.cause.login': '它需要你先登录：请运行 `zhi mcp login {server}`（会打开浏览器）',
    'mcp.cause.unauthorized': '{url} 上的服务器没有接受登录',
    'mcp.cause.noOAuth':
      '{url} 上的服务器要求登录（HTTP 401），但没有提供 zhi 能用的 OAuth：请在它的设置中用 headers: { Authorization: "Bearer …" } 提供令牌',
    'mcp.cause.notMcp':
      '{url} 返回的是网页，不是 MCP：请检查 url（MCP 服务器的地址通常以 /mcp 结尾，旧式传输则以 /sse 结尾）',
    'mcp.cause.serverSaid': '{cause}（服务器输出：{said}）',
    'mcp.approve.wants': '{server} 想要{action}',
    'mcp.approve.run': '运行它的工具 {tool}',
    'mcp.approve.write': '写入 {path}',
    'mcp.approve.writeSized': '写入 {path}（{size}）',
    'mcp.approve.edit': '修改 {path}',
    'mcp.approve.delete': '删除 {path}',
    'mcp.approve.move': '把 {path} 移动到 {to}',
    'mcp.approve.create': '创建 {path}',
    'mcp.approve.read': '读取 {path}',
    'mcp.approve.replaced': '{path} 已存在：它会被替换。',
    'mcp.approve.changed': '{path} 已存在：它会被修改。',
    'mcp.approve.deleted': '{path} 已存在：它会被删除。',
    'mcp.approve.names': '有一个参数指向已有文件 {path}：服务器可能会改动它。',
    'mcp.approve.rules':
      'MCP 工具按服务器自己的规则行事，而不是 zhi 的：zhi 的文件夹限制和“从不修改已有文件”对它不适用。',
    'mcp.approve.always': '本次会话中总是允许 {tool}',
    'mcp.approve.more': '… 还有 {count} 行',
    'mcp.approve.destructive': '服务器把 {tool} 标为破坏性操作：它可能删除或覆盖数据，而且可能无法撤销。',
    'mcp.approve.readOnly': '服务器把 {tool} 标为只读。',
  },
);
