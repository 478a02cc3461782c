import { defineMessages } from '../define.js';

// Strings of the paid platform readers: GLM-ASR speech recognition and Zhipu's file parser.
export const office = defineMessages(
  {
    'skills.asr': 'Transcribing {file} with GLM-ASR…',
    'asr.price': '{file}: {duration} of audio, {pieces} request(s) to GLM-ASR, about {cost}.',
    'asr.priceUnknown':
      '{file}: {duration} of audio, {pieces} request(s) to GLM-ASR (charged per minute at this platform’s price).',
    'price.ask': ' Go ahead?',
    'price.agreed': ' (--yes / --auto: going ahead without asking)',
    'price.unasked': '{line} zhi asks before using a paid service.',
    'price.noTerminal': 'There is no terminal to ask you, so nothing was sent.',
    'price.try.yes': 'Run the same command with --yes (or --auto) to agree to the price in advance.',
    'asr.err.declined': 'Did not transcribe {path}: the speech recognition service was not agreed to.',
    'asr.err.failed': 'Could not transcribe {path}.',
    'asr.err.noClient': '{path} is a recording, and speech recognition needs an API key.',
    'asr.why.needsFfmpeg': 'zhi cuts WAV and MP3 itself; .{ext} audio needs ffmpeg, which is not installed.',
    'asr.why.needsFfmpegShort':
      'this audio format needs ffmpeg, which is not installed; save the recording as MP3 or WAV, or install ffmpeg',
    'asr.why.silent': 'the recording holds no sound (silent, or no samples): there is nothing to transcribe',
    'asr.why.unreadable': 'the file could not be read as audio (it may be damaged, or not a recording)',
    'asr.why.tooLong':
      'the recording is longer than 4 hours, the most zhi transcribes at a time; cut it into shorter recordings (an audio editor, or ffmpeg -f segment)',
    'asr.try.ffmpegLinux': 'Install ffmpeg (sudo apt install ffmpeg), or save the recording as MP3 or WAV.',
    'asr.try.ffmpegMac': 'Install ffmpeg (brew install ffmpeg), or save the recording as MP3 or WAV.',
    'asr.try.ffmpegWindows': 'Install ffmpeg (winget install ffmpeg), or save the recording as MP3 or WAV.',
    'asr.progress': 'GLM-ASR: part {index} of {total}…',
    'doctor.audio.ffmpeg':
      'Recordings: WAV and MP3 read by zhi, other formats (m4a, aac, ogg, flac…) through ffmpeg ({path}); long audio is sent in {seconds}-second parts.',
    'doctor.audio.native':
      'Recordings: WAV and MP3 read by zhi (long audio sent in {seconds}-second parts); m4a, aac, ogg and other formats need ffmpeg, which is not installed.',
    'parser.price':
      '{file} cannot be read on this computer (it needs LibreOffice). Zhipu’s file parser can read it: about {pages} page(s) (estimated from its size), about {cost}.',
    'parser.priceUnknown':
      '{file} cannot be read on this computer (it needs LibreOffice). Zhipu’s file parser can read it: about {pages} page(s) (estimated from its size), charged per page at this platform’s price.',
    'parser.err.declined': 'Did not read {path}: sending it to Zhipu’s file parser was not agreed to.',
    'repl.attach.parsed': '{name}: read by Zhipu’s file parser.',
    'repl.attach.asrYes': '{name}: transcribed ({duration}).',
    'repl.attach.asrNo': '{name} not attached.',
  },
  {
    'skills.asr': '正在用 GLM-ASR 转写 {file}…',
    'asr.price': '{file}：音频时长 {duration}，需向 GLM-ASR 发送 {pieces} 次请求，费用约 {cost}。',
    'asr.priceUnknown':
      '{file}：音频时长 {duration}，需向 GLM-ASR 发送 {pieces} 次请求（按本平台的每分钟价格计费）。',
    'price.ask': '要继续吗？',
    'price.agreed': '（--yes / --auto：不再询问，直接继续）',
    'price.unasked': '{line}zhi 在使用付费服务前会先询问你。',
    'price.noTerminal': '没有可以询问你的终端，因此没有发送任何内容。',
    'price.try.yes': '加上 --yes（或 --auto）再运行同一命令，即可事先同意这笔费用。',
    'asr.err.declined': '没有转写 {path}：未同意使用语音识别服务。',
    'asr.err.failed': '无法转写 {path}。',
    'asr.err.noClient': '{path} 是录音，语音识别需要 API 密钥。',
    'asr.why.needsFfmpeg': 'zhi 可以自行切分 WAV 和 MP3；.{ext} 格式的音频需要 ffmpeg，但本机没有安装。',
    'asr.why.needsFfmpegShort':
      '这种音频格式需要 ffmpeg，但本机没有安装；请把录音另存为 MP3 或 WAV，或安装 ffmpeg',
    'asr.why.silent': '录音里没有声音（静音或没有采样），没有可转写的内容',
    'asr.why.unreadable': '无法把这个文件当作音频读取（可能已损坏，或不是录音）',
    'asr.why.tooLong':
      '录音超过 4 小时，超出 zhi 单次能转写的长度；请把它剪成几段较短的录音（可用音频编辑软件，或 ffmpeg -f segment）',
    'asr.try.ffmpegLinux': '请安装 ffmpeg（sudo apt install ffmpeg），或把录音另存为 MP3 或 WAV。',
    'asr.try.ffmpegMac': '请安装 ffmpeg（brew install ffmpeg），或把录音另存为 MP3 或 WAV。',
    'asr.try.ffmpegWindows': '请安装 ffmpeg（winget install ffmpeg），或把录音另存为 MP3 或 WAV。',
    'asr.progress': 'GLM-ASR：第 {index}/{total} 段…',
    'doctor.audio.ffmpeg':
      '录音：WAV 和 MP3 由 zhi 直接读取，其他格式（m4a、aac、ogg、flac…）通过 ffmpeg（{path}）；长录音按 {seconds} 秒一段发送。',
    'doctor.audio.native':
      '录音：WAV 和 MP3 由 zhi 直接读取（长录音按 {seconds} 秒一段发送）；m4a、aac、ogg 等其他格式需要 ffmpeg，但本机没有安装。',
    'parser.price':
      '本机无法读取 {file}（需要 LibreOffice）。智谱文件解析服务可以读取：约 {pages} 页（按文件大小估算），费用约 {cost}。',
    'parser.priceUnknown':
      '本机无法读取 {file}（需要 LibreOffice）。智谱文件解析服务可以读取：约 {pages} 页（按文件大小估算），按本平台的每页价格计费。',
    'parser.err.declined': '没有读取 {path}：未同意把它发送给智谱文件解析服务。',
    'repl.attach.parsed': '{name}：已由智谱文件解析服务读取。',
    'repl.attach.asrYes': '{name}：已转写（{duration}）。',
    'repl.attach.asrNo': '未附上 {name}。',
  },
);
