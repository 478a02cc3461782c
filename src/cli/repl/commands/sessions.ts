import { ZhiError } from '../../../support/errors.js';
import { t } from '../../../support/i18n/index.js';
import { formatError } from '../../render/error.js';
import { stderrColumns } from '../../render/width.js';
import { contextNow } from '../status.js';
import { priceStepNow } from '../usage-text.js';
import type { SlashCommand, SlashContext } from './types.js';

// The listing, resuming and usage code is loaded on first use, not when the REPL starts.
const listing = () => import('../../../agent/sessions/listing.js');
const list = () => import('../../sessions/list.js');

const SHOWN = 15;

function width(): number {
  return process.stderr.isTTY ? process.stderr.columns || 100 : 100;
}

/** Show recent sessions (this folder's first), numbered for `/resume <n>`. */
async function showList(ctx: SlashContext, query: string): Promise<void> {
  const { listSessions } = await listing();
  const { sessionTable } = await list();
  // Conversations only: skill runs are listed by zhi sessions --runs.
  const all = await listSessions(ctx.app.paths.sessionsDir, {
    ...(query ? { query } : {}),
    kinds: ['repl', 'oneshot'],
  });
  const current = ctx.chat.session?.recorder.id;
  const others = all.filter((s) => s.id !== current);
  const ordered = [
    ...others.filter((s) => s.cwd === ctx.app.cwd),
    ...others.filter((s) => s.cwd !== ctx.app.cwd),
  ].slice(0, SHOWN);
  ctx.state.lastList = ordered;
  if (!ordered.length) {
    ctx.print(
      query ? t('sessions.noMatch', { query }) : t(all.length ? 'sessions.noOthers' : 'sessions.none'),
    );
    return;
  }
  ctx.print(
    sessionTable(ordered, { style: ctx.app.err, width: width(), cwd: ctx.app.cwd, numbered: true }).join(
      '\n',
    ),
  );
  ctx.print(ctx.app.err.dim(t('sessions.replHint')));
}

const sessions: SlashCommand = {
  name: 'sessions',
  description: 'sessions.cmd.sessions',
  usage: '[text]',
  run: (args, ctx) => showList(ctx, args.trim()),
};

const resume: SlashCommand = {
  name: 'resume',
  description: 'sessions.cmd.resume',
  usage: '[number | id]',
  async complete(partial, ctx) {
    const shown = ctx.state.lastList ?? [];
    return shown.map((s) => s.id).filter((id) => id.startsWith(partial));
  },
  async run(args, ctx) {
    const arg = args.trim();
    if (!arg) {
      await showList(ctx, '');
      return;
    }
    const wiring = ctx.chat.session;
    if (!wiring) {
      ctx.warn(t('sessions.notRecording'));
      return;
    }
    const shown = ctx.state.lastList ?? [];
    const { load, resolveSessionArg } = await import('../../sessions/resume.js');
    const { resumeLines } = await import('../../sessions/notes.js');
    try {
      const picked =
        /^\d{1,3}$/.test(arg) && shown[Number(arg) - 1]
          ? shown[Number(arg) - 1]!
          : await resolveSessionArg(ctx.app.paths.sessionsDir, arg);
      if (picked.id === wiring.recorder.id) {
        ctx.print(t('sessions.alreadyHere', { id: picked.id }));
        return;
      }
      const loaded = await load(picked.file);
      const previous = wiring.recorder.started ? wiring.recorder.id : undefined;
      wiring.switchTo(loaded);
      ctx.print(resumeLines(loaded, ctx.app.err, true, ctx.app.cwd).join('').trimEnd());
      if (previous) ctx.print(ctx.app.err.dim(t('sessions.previousSaved', { id: previous })));
    } catch (err) {
      if (err instanceof ZhiError) ctx.print(formatError(err, ctx.app.err, { inRepl: true }).trimEnd());
      else throw err;
    }
  },
};

const compact: SlashCommand = {
  name: 'compact',
  description: 'sessions.cmd.compact',
  usage: '[focus]',
  async run(args, ctx) {
    const wiring = ctx.chat.session;
    if (!wiring) {
      ctx.warn(t('sessions.notRecording'));
      return;
    }
    ctx.print(ctx.app.err.dim(t('sessions.compact.working')));
    const focus = args.trim();
    // Ctrl+C stops the summary call; the conversation stays as it was.
    // The summary call's usage reaches the session file and ledger through the wiring's consumer.
    const r = await ctx.app.interrupt.run((signal) =>
      wiring.compactor.compact(ctx.chat.messages, { reason: 'manual', signal, ...(focus ? { focus } : {}) }),
    );
    ctx.print(r.notice ?? t('sessions.compact.nothing'));
  },
};

const usage: SlashCommand = {
  name: 'usage',
  description: 'sessions.cmd.usage',
  async run(_args, ctx) {
    ctx.print((await usageReport(ctx)).join('\n'));
  },
};

/** The rich /usage text (also used by the core /usage command when it delegates here). */
export async function usageReport(ctx: Pick<SlashContext, 'app' | 'chat'>): Promise<string[]> {
  const { formatUsage } = await import('../../sessions/usage-view.js');
  const wiring = ctx.chat.session;
  const step = priceStepNow(ctx.chat);
  const lines = formatUsage(ctx.chat.deps.usage, {
    style: ctx.app.err,
    context: contextNow(ctx.chat),
    compactions: wiring?.compactor.count ?? 0,
    sessionId: wiring && (wiring.recorder.started || wiring.earlier) ? wiring.recorder.id : undefined,
    earlier: wiring?.earlier,
    columns: stderrColumns(),
  });
  return step ? [...lines, step] : lines;
}

export const commands: SlashCommand[] = [sessions, resume, compact, usage];
