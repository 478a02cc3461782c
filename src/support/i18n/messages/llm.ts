import { defineMessages } from '../define.js';

export const llm = defineMessages(
  {
    'llm.auth.what': 'The API key was rejected.',
    'llm.platformSaid': 'the platform answered “{message}”{detail}',
    'llm.platformSaid.detail': ' (HTTP {status}, code {code})',
    'llm.platformSaid.code': ' (code {code})',
    'llm.auth.try1': 'Check the key with `zhi config show`, or set a new one with `zhi --setup`.',
    'llm.auth.try2': 'Keys are per platform: a Z.ai key does not work on BigModel, and the reverse.',
    'llm.balance.what': 'Your Zhipu account has no balance or resource package left.',
    'llm.balance.try1': 'Top up at {url}, or switch to a free model (e.g. `--model glm-4-flash`).',
    'llm.balance.try1Free':
      'Top up at {url}: {model} is already a free model, and the API refuses even free models while the account has no balance.',
    'llm.balance.try1FreeCustom':
      'Top up with your provider: {model} is already a free model, and the API refuses even free models while the account has no balance.',
    'llm.balance.try1Custom':
      'Top up with your provider, or switch to a free model (e.g. `--model glm-4-flash`).',
    'llm.balance.try2':
      'A coding-plan key only works on the coding endpoint: check `platform` in the config.',
    'llm.rateLimit.what': 'The API is limiting how fast you can call it.',
    'llm.rateLimit.try': 'Wait a minute and try again, or use fewer requests at once.',
    'llm.overloaded.what': 'The model is overloaded right now.',
    'llm.overloaded.try': 'Try again in a few minutes, or pick another model with --model.',
    'llm.context.what': 'The conversation is too long for the model.',
    'llm.context.try': 'Start a new conversation, or use /compact to summarise the older part.',
    'llm.filter.what': 'The request or answer was blocked by the content filter.',
    'llm.filter.try': 'Rephrase the request, or remove the sensitive part of the document.',
    'llm.badRequest.what': 'The API rejected the request.',
    'llm.badRequest.try': 'Check the model name (`zhi config get default_model`) and try again with --debug.',
    'llm.server.what': 'The Zhipu API had an internal error.',
    'llm.server.try': 'Try again in a moment; if it persists, check the platform status page.',
    'llm.network.what': 'Could not reach the Zhipu API.',
    'llm.network.try1': 'Check your internet connection (and HTTPS_PROXY if you use a proxy).',
    'llm.network.try2': 'Check the base URL with `zhi config get base_url`.',
    'llm.net.refused.what': 'Could not connect to {host}: connection refused.',
    'llm.net.refused.why':
      'Nothing is listening at that address and port: the server is not running there, or the base URL has the wrong host or port.',
    'llm.net.refused.try': 'If you use a local or relay server, make sure it is running.',
    'llm.net.notFound.what': 'Could not find the server {host}.',
    'llm.net.notFound.why':
      'Its name could not be looked up: a typo in the base URL, no internet connection, or a DNS problem.',
    'llm.net.timeout.what': 'Connecting to {host} timed out.',
    'llm.net.timeout.why':
      'No answer came in time: the network is slow, or a firewall blocks the connection; some networks need a proxy.',
    'llm.net.reset.what': 'The connection to {host} was closed unexpectedly.',
    'llm.net.reset.why': 'The network, or a proxy or firewall in between, dropped it.',
    'llm.net.unreachable.what': 'There is no route to {host}.',
    'llm.net.unreachable.why': 'This computer is offline, or its network cannot reach that address.',
    'llm.net.certificate.what': 'The secure connection to {host} could not be verified.',
    'llm.net.certificate.why':
      'Its certificate was not accepted. Usually a company network or antivirus that inspects HTTPS does this, or a wrong date and time on this computer ({detail}).',
    'llm.net.certificate.try1':
      'If your company inspects HTTPS, ask IT for its root certificate and set NODE_EXTRA_CA_CERTS to that file.',
    'llm.net.certificate.try2': "Check this computer's date and time.",
    'llm.net.proxy.what': 'Could not connect through the proxy {host}.',
    'llm.net.proxy.why': 'The proxy refused or failed the connection ({detail}).',
    'llm.net.proxyTry':
      'Requests go through the proxy {proxy} (HTTPS_PROXY or HTTP_PROXY): check that it runs and lets the address through, or unset it.',
    'llm.net.badPort.what': 'zhi will not connect to {host}: that port is blocked for safety.',
    'llm.net.badPort.why': 'Web clients refuse a few ports that belong to other services ({detail}).',
    'llm.net.checkConnection': 'Check your internet connection.',
    'llm.net.retry': 'Try again in a moment.',
    'llm.timeout.what': 'The Zhipu API stopped sending data.',
    'llm.timeout.try': 'Try again; long documents may need a shorter request.',
    'llm.aborted.what': 'The request was cancelled.',
    'llm.cutMidway': 'The connection dropped in the middle of the answer.',
    'llm.cutMidway.try': 'What arrived before the drop is shown above; ask again to get the rest.',
    'llm.cutBefore': 'The connection dropped before any of the answer arrived.',
    'llm.cutBefore.try': 'Ask again: nothing of this answer was lost.',
    'llm.cutWhy':
      'the connection to the API was closed (by the network, a proxy or the server) while the answer streamed',
    'llm.tooLong.what':
      'The answer grew far past any normal length, so zhi stopped it: the model seems stuck repeating itself.',
    'llm.tooSlow.what':
      'The answer kept arriving far longer than any normal answer takes, so zhi stopped it: the model seems stuck.',
    'llm.endless.try':
      'What arrived is kept above. Ask again, perhaps for a shorter answer, or try another model.',
    'llm.frameTooLong.what':
      'The API sent one piece of the stream that never ended, so zhi stopped reading it before it used up the memory.',
    'llm.frameTooLong.why': 'One event of the stream passed {mb} MB without ending.',
    'llm.frameTooLong.try':
      'What arrived before it is kept above. Ask again; if it happens again, check the API address (`zhi config get base_url`) and any proxy in between.',
    'llm.baseUrl.what': 'There is no Zhipu API at the configured address.',
    'llm.baseUrl.why': 'The server at {url} answered "404 Not Found" for the chat endpoint.',
    'llm.baseUrl.try1':
      'Check the base URL: `zhi config get base_url` (ZHI_BASE_URL in the environment wins over the file).',
    'llm.baseUrl.try2': "The platform's address is {url}; remove base_url to use it.",
    'llm.tooManyTools.what': 'The API refused the request because it carried too many tools.',
    'llm.tooManyTools.try':
      'Leave out MCP servers or tools you do not need (`include`/`exclude` in mcp_servers, `zhi mcp remove <name>`); zhi sends at most about 40 tool schemas at a time, so please report this with --debug output.',
    'llm.noModel.what': 'The platform does not serve this model.',
    'llm.noModel.try1': '`zhi models` lists the models zhi knows and those your account offers.',
    'llm.noModel.try2':
      'Check the spelling in --model, or in `zhi config get default_model` / `skill_model` (ZHI_DEFAULT_MODEL and ZHI_SKILL_MODEL win over the file).',
    'llm.serverStopped.what': 'The Zhipu server stopped generating the answer.',
    'llm.serverStopped.try': 'This is a problem on the server side, not your connection: ask again.',
    'llm.planLimit.what': "Your coding plan's usage window is used up.",
    'llm.planLimit.try1': "It resets at {time} (the server's time); try again after that.",
    'llm.planLimit.try2': 'Or switch to pay-per-token: `zhi config set platform bigmodel` (or zai).',
    'llm.warn.streamRepaired':
      'The API sent a damaged piece of the stream; zhi recovered the text around it. If the answer looks incomplete, ask again.',
    'llm.warn.streamDamaged':
      'The API sent a damaged piece of the stream that could not be read: a few words of the answer may be missing. Ask again if it looks incomplete.',
    'llm.warn.thinkingForced':
      '{model} always thinks: asked again with thinking on (remembered for next time).',
    'llm.warn.unknownModel':
      "{model} is not in zhi's model list: using it with basic settings, and its cost is not counted.",
  },
  {
    'llm.auth.what': 'API 密钥被拒绝。',
    'llm.platformSaid': '平台的回复：“{message}”{detail}',
    'llm.platformSaid.detail': '（HTTP {status}，错误码 {code}）',
    'llm.platformSaid.code': '（错误码 {code}）',
    'llm.auth.try1': '用 `zhi config show` 检查密钥，或运行 `zhi --setup` 设置新密钥。',
    'llm.auth.try2': '密钥按平台区分：Z.ai 的密钥不能用于 BigModel（智谱开放平台），反之亦然。',
    'llm.balance.what': '你的智谱账户余额不足，或没有可用的资源包。',
    'llm.balance.try1': '请到 {url} 充值，或换用免费模型（例如 `--model glm-4-flash`）。',
    'llm.balance.try1Custom': '请向你的服务商充值，或换用免费模型（例如 `--model glm-4-flash`）。',
    'llm.balance.try1Free':
      '请到 {url} 充值：{model} 已经是免费模型，账户没有余额时，API 连免费模型也会拒绝。',
    'llm.balance.try1FreeCustom':
      '请向你的服务商充值：{model} 已经是免费模型，账户没有余额时，API 连免费模型也会拒绝。',
    'llm.balance.try2': '编程套餐（Coding Plan）密钥只能用于编程端点：请检查配置中的 `platform`。',
    'llm.rateLimit.what': 'API 正在限制你的调用频率。',
    'llm.rateLimit.try': '请等一分钟再试，或减少同时发出的请求。',
    'llm.overloaded.what': '模型当前访问量过大。',
    'llm.overloaded.try': '请几分钟后再试，或用 --model 换一个模型。',
    'llm.context.what': '对话太长，超出了模型的上下文长度。',
    'llm.context.try': '开始新的对话，或用 /compact 压缩较早的内容。',
    'llm.filter.what': '请求或回答被内容安全过滤拦截了。',
    'llm.filter.try': '换一种说法，或删去文档中的敏感部分。',
    'llm.badRequest.what': 'API 拒绝了这个请求。',
    'llm.badRequest.try': '检查模型名称（`zhi config get default_model`），并加上 --debug 重试。',
    'llm.server.what': '智谱 API 内部出错。',
    'llm.server.try': '稍后重试；如果一直出错，请查看平台状态页。',
    'llm.network.what': '无法连接到智谱 API。',
    'llm.network.try1': '检查网络连接（如果使用代理，也检查 HTTPS_PROXY）。',
    'llm.network.try2': '用 `zhi config get base_url` 检查接口地址。',
    'llm.net.refused.what': '无法连接到 {host}：连接被拒绝。',
    'llm.net.refused.why':
      '该地址和端口上没有服务在监听：服务器没有在那里运行，或接口地址（base URL）的主机或端口写错了。',
    'llm.net.refused.try': '如果你使用本地或中转服务器，请确认它正在运行。',
    'llm.net.notFound.what': '找不到服务器 {host}。',
    'llm.net.notFound.why': '无法解析这个名称：接口地址拼写有误、没有联网，或 DNS 出了问题。',
    'llm.net.timeout.what': '连接 {host} 超时。',
    'llm.net.timeout.why': '没有及时得到响应：网络很慢，或防火墙拦截了连接；有些网络需要通过代理访问。',
    'llm.net.reset.what': '与 {host} 的连接被意外关闭。',
    'llm.net.reset.why': '网络、或中间的代理或防火墙断开了连接。',
    'llm.net.unreachable.what': '没有通往 {host} 的网络路径。',
    'llm.net.unreachable.why': '这台电脑没有联网，或它所在的网络无法访问该地址。',
    'llm.net.certificate.what': '无法验证与 {host} 的安全连接。',
    'llm.net.certificate.why':
      '它的证书未被接受。通常是公司网络或杀毒软件在检查 HTTPS 流量，或这台电脑的日期和时间不对（{detail}）。',
    'llm.net.certificate.try1':
      '如果公司会检查 HTTPS 流量，请向 IT 部门索取根证书，并把 NODE_EXTRA_CA_CERTS 设为该文件。',
    'llm.net.certificate.try2': '检查这台电脑的日期和时间。',
    'llm.net.proxy.what': '无法通过代理 {host} 连接。',
    'llm.net.proxy.why': '代理拒绝了连接或连接失败（{detail}）。',
    'llm.net.proxyTry':
      '请求会经过代理 {proxy}（HTTPS_PROXY 或 HTTP_PROXY）：请确认它正在运行并允许访问该地址，或取消这个设置。',
    'llm.net.badPort.what': 'zhi 不会连接 {host}：出于安全原因，这个端口被禁止。',
    'llm.net.badPort.why': '网络客户端会拒绝少数属于其他服务的端口（{detail}）。',
    'llm.net.checkConnection': '检查网络连接。',
    'llm.net.retry': '稍后再试。',
    'llm.timeout.what': '智谱 API 停止发送数据。',
    'llm.timeout.try': '请重试；很长的文档可能需要拆成较短的请求。',
    'llm.aborted.what': '请求已取消。',
    'llm.cutMidway': '回答过程中连接中断了。',
    'llm.cutMidway.try': '中断前收到的内容已显示在上方；再问一次即可得到其余部分。',
    'llm.cutBefore': '回答还没开始传回，连接就中断了。',
    'llm.cutBefore.try': '再问一次即可：这次回答没有丢失任何内容。',
    'llm.cutWhy': '回答传输过程中，与 API 的连接被关闭了（网络、代理或服务器所致）',
    'llm.tooLong.what': '回答远远超出了正常长度，zhi 已停止接收：模型似乎在不断重复。',
    'llm.tooSlow.what': '回答持续输出的时间远远超出正常回答所需，zhi 已停止接收：模型似乎卡住了。',
    'llm.endless.try': '已收到的内容保留在上方。请重新提问（可要求更简短的回答），或换一个模型。',
    'llm.frameTooLong.what': 'API 发来的一段流数据始终没有结束，zhi 在它耗尽内存之前停止了读取。',
    'llm.frameTooLong.why': '流中的一个事件超过了 {mb} MB 仍未结束。',
    'llm.frameTooLong.try':
      '之前收到的内容保留在上方。请重新提问；如果再次出现，请检查接口地址（`zhi config get base_url`）以及中间的代理。',
    'llm.baseUrl.what': '配置的地址上没有智谱 API。',
    'llm.baseUrl.why': '{url} 上的服务器对对话接口回复了“404 Not Found”。',
    'llm.baseUrl.try1': '检查接口地址：`zhi config get base_url`（环境变量 ZHI_BASE_URL 优先于配置文件）。',
    'llm.baseUrl.try2': '平台的默认地址是 {url}；删除 base_url 即可使用它。',
    'llm.tooManyTools.what': 'API 拒绝了这个请求：请求中的工具太多。',
    'llm.tooManyTools.try':
      '去掉用不到的 MCP 服务器或工具（mcp_servers 中的 `include`/`exclude`，或 `zhi mcp remove <名称>`）；zhi 一次最多发送约 40 个工具定义，请附上 --debug 输出报告此问题。',
    'llm.noModel.what': '平台上没有这个模型。',
    'llm.noModel.try1': '`zhi models` 会列出 zhi 认识的模型，以及你的账户可用的模型。',
    'llm.noModel.try2':
      '检查 --model 的拼写，或 `zhi config get default_model` / `skill_model`（环境变量 ZHI_DEFAULT_MODEL、ZHI_SKILL_MODEL 优先于配置文件）。',
    'llm.serverStopped.what': '智谱服务器中途停止生成回答。',
    'llm.serverStopped.try': '这是服务器端的问题，不是你的网络：请再问一次。',
    'llm.planLimit.what': '编程套餐（Coding Plan）当前时段的用量已用完。',
    'llm.planLimit.try1': '额度将在 {time}（服务器时间）重置，届时再试。',
    'llm.planLimit.try2': '或改用按量计费：`zhi config set platform bigmodel`（或 zai）。',
    'llm.warn.streamRepaired':
      'API 发来了一段损坏的数据流，zhi 已恢复其前后的文字。如果回答看起来不完整，请再问一次。',
    'llm.warn.streamDamaged':
      'API 发来了一段无法读取的损坏数据流：回答中可能缺少几个字。如果看起来不完整，请再问一次。',
    'llm.warn.thinkingForced': '{model} 始终开启思考：已开启思考重新请求（下次会记住）。',
    'llm.warn.unknownModel': '{model} 不在 zhi 的模型列表中：将以基本设置使用它，费用不计入统计。',
  },
);
