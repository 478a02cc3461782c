/** The chat routes: conversations, messages, stop, the event stream, approvals. */
import { sessionMarkdown } from '../../agent/sessions/export.js';
import type { WebAnswer } from './approvals.js';
import { httpError, readJson, str } from './http.js';
import type { Router } from './router.js';
import type { WebState } from './state.js';

const ANSWERS = new Set<WebAnswer>(['yes', 'no', 'always']);

export function chatRoutes(router: Router, state: WebState): void {
  const conv = () => state.conversations;
  router.add('GET', '/api/conversations', async ({ url }) => [
    200,
    await conv().list(url.searchParams.get('q') ?? undefined),
  ]);
  router.add('POST', '/api/conversations', async () => [201, { id: await conv().create() }]);
  router.add('GET', '/api/conversations/:id', async ({ params }) => [200, await conv().get(params.id!)]);
  router.add('DELETE', '/api/conversations/:id', async ({ params }) => {
    await conv().remove(params.id!);
    return [200, { ok: true }];
  });
  router.add('GET', '/api/conversations/:id/export', async ({ params, res }) => {
    const loaded = await conv().loaded(params.id!);
    const text = sessionMarkdown(loaded);
    res.writeHead(200, {
      'Content-Type': 'text/markdown; charset=utf-8',
      'Content-Disposition': `attachment; filename="zhi-${loaded.id}.md"`,
      'Cache-Control': 'no-store',
    });
    res.end(text);
    return undefined;
  });
  router.add('POST', '/api/conversations/:id/messages', async ({ params, req }) => {
    const body = await readJson(req);
    const text = str(body, 'text') ?? '';
    const attachments = Array.isArray(body.attachments)
      ? body.attachments.filter((a) => typeof a === 'string')
      : [];
    const runId = await conv().send(params.id!, text, attachments);
    return [202, { runId }];
  });
  router.add('POST', '/api/conversations/:id/stop', ({ params }) => [200, { ok: conv().stop(params.id!) }]);
  router.add('GET', '/api/conversations/:id/events', async ({ params, req, res }) => {
    await conv().attach(params.id!, req, res);
    return undefined;
  });
  router.add('POST', '/api/approvals/:id', async ({ params, req }) => {
    const body = await readJson(req);
    const answer = str(body, 'answer') as WebAnswer | undefined;
    if (!answer || !ANSWERS.has(answer))
      throw httpError(400, {
        what: { key: 'web.err.badJson', params: { detail: 'answer: yes, no or always' } },
      });
    const keys = Array.isArray(body.choices)
      ? body.choices.filter((k): k is string => typeof k === 'string')
      : [];
    if (!state.approvals.answer(params.id!, answer, keys))
      throw httpError(404, { what: { key: 'web.err.noApproval' } });
    return [200, { ok: true }];
  });
}
