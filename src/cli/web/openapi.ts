/**
 * The OpenAPI 3.1 document the server publishes at /openapi.json: every route of docs/web-api.md,
 * from one table, so a script or another tool finds the API without reading zhi's source.
 */

interface Op {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  summary: string;
  body?: Record<string, unknown>;
  /** The success status (200 unless said). */
  status?: number;
  /** text/event-stream, a download, or JSON (default). */
  produces?: 'sse' | 'file';
}

const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
});
const s = { type: 'string' };
const paths = { type: 'array', items: s };

export const OPERATIONS: Op[] = [
  {
    method: 'get',
    path: '/api/status',
    summary: 'Version, language, whether set up, models, connected folder, sandbox',
  },
  { method: 'get', path: '/api/strings', summary: "The page's strings in the current language" },
  {
    method: 'post',
    path: '/api/setup',
    summary: 'First-run set-up: the key is checked live as the wizard does, then stored (never echoed)',
    body: obj({ apiKey: s, platform: s, language: s, model: s, skillModel: s, save: { type: 'boolean' } }),
  },
  {
    method: 'put',
    path: '/api/settings',
    summary: 'Language, chat model, connected folder',
    body: obj({ language: s, model: s, cwd: s }),
  },
  { method: 'get', path: '/api/conversations', summary: 'Saved conversations, newest first; ?q= searches' },
  { method: 'post', path: '/api/conversations', summary: 'A new conversation', status: 201 },
  { method: 'get', path: '/api/conversations/{id}', summary: 'A conversation with its history' },
  { method: 'delete', path: '/api/conversations/{id}', summary: 'Delete a conversation' },
  {
    method: 'get',
    path: '/api/conversations/{id}/export',
    summary: 'The conversation as Markdown',
    produces: 'file',
  },
  {
    method: 'post',
    path: '/api/conversations/{id}/messages',
    summary: 'Send a message; its run starts (409 while one runs)',
    body: obj({ text: s, attachments: paths }, ['text']),
    status: 202,
  },
  { method: 'post', path: '/api/conversations/{id}/stop', summary: "Stop the conversation's run" },
  {
    method: 'get',
    path: '/api/conversations/{id}/events',
    summary: 'Server-Sent Events: run_start, run, approval, approval_done, run_end',
    produces: 'sse',
  },
  {
    method: 'post',
    path: '/api/approvals/{id}',
    summary: 'Answer an approval (404 when answered already)',
    body: obj({ answer: { enum: ['yes', 'no', 'always'] }, choices: paths }, ['answer']),
  },
  {
    method: 'post',
    path: '/api/uploads',
    summary:
      "A file (raw body, X-File-Name percent-encoded) into the connected folder's zhi-uploads/, or zhi-uploads/<X-Upload-Folder>/ when that header names one folder",
    status: 201,
  },
  { method: 'get', path: '/api/skills', summary: 'The skills with their descriptions' },
  {
    method: 'post',
    path: '/api/skills/{name}/estimate',
    summary: 'The dry-run estimate of a skill run',
    body: obj({ inputs: paths }, ['inputs']),
  },
  {
    method: 'post',
    path: '/api/skills/{name}/runs',
    summary: 'Run a skill on files or a folder',
    body: obj({ inputs: paths, batch: { type: 'boolean' }, force: { type: 'boolean' } }, ['inputs']),
    status: 202,
  },
  {
    method: 'get',
    path: '/api/runs',
    summary: "This server's skill runs and the output folder's run records",
  },
  { method: 'get', path: '/api/batch', summary: 'The Batch API jobs of this key with their state' },
  { method: 'get', path: '/api/runs/{id}', summary: 'One run' },
  {
    method: 'get',
    path: '/api/runs/{id}/events',
    summary: 'Server-Sent Events of a skill run',
    produces: 'sse',
  },
  { method: 'post', path: '/api/runs/{id}/stop', summary: 'Stop a skill run' },
  { method: 'get', path: '/api/outputs', summary: 'The files in the output folder' },
  { method: 'get', path: '/api/outputs/file', summary: 'Download an output (?path=)', produces: 'file' },
  {
    method: 'get',
    path: '/api/outputs/preview',
    summary: 'A table (xlsx, csv) or text (md, docx, txt) preview (?path=)',
  },
  {
    method: 'post',
    path: '/api/outputs/open',
    summary: "Open an output in the system's application",
    body: obj({ path: s }, ['path']),
  },
  { method: 'get', path: '/api/usage', summary: 'Cost and tokens per day, model and skill (?days=30)' },
  { method: 'get', path: '/api/mcp', summary: 'MCP servers and their state' },
  { method: 'get', path: '/api/doctor', summary: "zhi doctor's checks" },
];

const ERROR = {
  description: "An error, in the person's language",
  content: {
    'application/json': {
      schema: obj({
        error: obj({ code: s, message: s, advice: s, suggestions: paths }, ['code', 'message']),
      }),
    },
  },
};

function operation(op: Op): Record<string, unknown> {
  const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: s,
  }));
  const content =
    op.produces === 'sse'
      ? { 'text/event-stream': { schema: s } }
      : op.produces === 'file'
        ? { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } }
        : { 'application/json': { schema: { type: ['object', 'array'] } } };
  return {
    summary: op.summary,
    ...(params.length ? { parameters: params } : {}),
    ...(op.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } }
      : {}),
    responses: {
      [String(op.status ?? 200)]: { description: 'OK', content },
      '400': ERROR,
      '401': ERROR,
      '403': ERROR,
      '404': ERROR,
    },
  };
}

export function openApiDocument(version: string): Record<string, unknown> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    out[op.path] ??= {};
    out[op.path]![op.method] = operation(op);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'zhi local API',
      version,
      description:
        'The API of `zhi serve` / `zhi web` on 127.0.0.1. Send the secret zhi printed as `Authorization: Bearer <secret>`.',
    },
    servers: [{ url: '/' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths: out,
  };
}
