/**
 * The fake's paid readers: GLM-ASR (`POST /audio/transcriptions`, reference: docs.bigmodel.cn
 * 语音转文本 and zai-sdk audio/transcriptions.py) and the file parser (`POST /files/parser/sync`,
 * reference §7.2). Both take multipart/form-data and check it as the service does; their
 * answers are derived from the uploaded bytes (a digest), so a test cannot pass on a canned text.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { RecordedRequest } from './server.js';

function send(res: ServerResponse, status: number, data: unknown): void {
  const text = JSON.stringify(data);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=UTF-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

function fail(res: ServerResponse, status: number, code: string, message: string): void {
  send(res, status, { error: { code, message } });
}

/** The first 8 hex digits of the SHA-256 of the bytes: what the fake's answers are built from. */
export function digest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 8);
}

export async function formOf(record: RecordedRequest, contentType: string): Promise<FormData | undefined> {
  if (!contentType.startsWith('multipart/form-data')) return undefined;
  try {
    return await new Response(record.bytes, { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    return undefined;
  }
}

/** Seconds of a WAV by its header, or of an MP3 by a rough bit-rate guess; undefined if neither. */
function audioSeconds(b: Buffer): number | undefined {
  if (b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WAVE') {
    let at = 12;
    let byteRate = 0;
    while (at + 8 <= b.length) {
      const id = b.toString('latin1', at, at + 4);
      const size = b.readUInt32LE(at + 4);
      if (id === 'fmt ') byteRate = b.readUInt32LE(at + 16);
      if (id === 'data') return byteRate ? Math.min(size, b.length - at - 8) / byteRate : undefined;
      at += 8 + size + (size % 2);
    }
    return undefined;
  }
  if (b.toString('latin1', 0, 3) === 'ID3' || (b[0] === 0xff && (b[1]! & 0xe0) === 0xe0))
    return b.length / 16_000;
  return undefined;
}

export async function transcription(
  record: RecordedRequest,
  res: ServerResponse,
  contentType: string,
): Promise<void> {
  const form = await formOf(record, contentType);
  if (!form) return fail(res, 400, '1214', 'file参数非法。请检查文档。');
  const model = String(form.get('model') ?? '').toLowerCase();
  if (!model) return fail(res, 400, '1213', 'model参数未正常接收');
  if (model !== 'glm-asr-2512' && model !== 'glm-asr')
    return fail(res, 400, '1211', '模型不存在，请检查模型代码。');
  const file = form.get('file');
  if (!file || typeof file === 'string') return fail(res, 400, '1214', 'file参数非法。请检查文档。');
  const bytes = Buffer.from(await file.arrayBuffer());
  if (bytes.length > 25 * 1024 * 1024) return fail(res, 400, '1214', '文件大小不能超过25M');
  const seconds = audioSeconds(bytes);
  if (seconds === undefined) return fail(res, 400, '1214', '音频格式不支持，仅支持wav、mp3');
  if (seconds > 30) return fail(res, 400, '1214', '音频时长不能超过30秒');
  send(res, 200, {
    id: `asr_${randomBytes(6).toString('hex')}`,
    created: Math.floor(Date.now() / 1000),
    request_id: String(form.get('request_id') ?? randomBytes(8).toString('hex')),
    model: 'glm-asr-2512',
    text: `speech ${digest(bytes)} ${seconds.toFixed(1)}s`,
  });
}

const PARSER_TYPES = [
  'WPS',
  'PDF',
  'DOCX',
  'DOC',
  'XLS',
  'XLSX',
  'PPT',
  'PPTX',
  'PNG',
  'JPG',
  'JPEG',
  'CSV',
  'TXT',
  'MD',
  'HTML',
];

/** `POST /files/parser/sync`: tool_type prime-sync, a known file_type and a file. */
export async function parseSync(
  record: RecordedRequest,
  res: ServerResponse,
  contentType: string,
): Promise<void> {
  const form = await formOf(record, contentType);
  if (!form) return fail(res, 400, '1214', 'file参数非法。请检查文档。');
  if (form.get('tool_type') !== 'prime-sync') return fail(res, 400, '1214', 'tool_type参数非法。');
  const type = String(form.get('file_type') ?? '').toUpperCase();
  if (!PARSER_TYPES.includes(type)) return fail(res, 400, '1214', 'file_type参数非法。');
  const file = form.get('file');
  if (!file || typeof file === 'string') return fail(res, 400, '1214', 'file参数非法。请检查文档。');
  const bytes = Buffer.from(await file.arrayBuffer());
  send(res, 200, {
    status: 'succeeded',
    message: '结果获取成功',
    task_id: `task_${randomBytes(6).toString('hex')}`,
    content: `# Parsed ${type}\n\nparsed ${digest(bytes)} (${bytes.length} bytes)`,
  });
}
