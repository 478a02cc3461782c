import { t } from '../support/i18n/index.js';
import {
  ALWAYS_SITE,
  ALWAYS_STANDING,
  type AnyTool,
  type Assessment,
  type Outbound,
  type ToolContext,
  ToolError,
} from '../tools/types.js';
import { ruleCover } from './allow-rules.js';
import {
  type CallOutcome,
  type CallSlot,
  failure,
  noticeText,
  type Prepared,
  type RunParts,
} from './call-parts.js';
import { decideEgress, type EgressVerdict, egressFacts, egressQuestion, recordSent } from './egress.js';
import { decide, siteHost, standingGrants } from './permissions.js';
import { defaultPreview } from './tool-args.js';

/**
 * What stops a call before anyone is asked: a loaded skill's limits, a secret about to leave the
 * computer, the tool's own refusal. Otherwise the tool's assessment and where the call would send.
 */
async function checkCall(
  prep: Extract<Prepared, { tool: AnyTool }>,
  ctx: ToolContext,
  slot: CallSlot,
  run: RunParts,
): Promise<
  | { outcome: CallOutcome }
  | { assessment: Assessment; egress: EgressVerdict | undefined; outbound: Outbound[] }
> {
  const { tool, name, args } = prep;
  const { deps } = run;
  const id = slot.call.id;
  const limited = deps.guard?.(name, args);
  if (limited) {
    const notice = noticeText(limited.notice);
    slot.emit({ type: 'permission', id, name, decision: 'refused', reason: limited.reason, notice });
    return { outcome: failure(t('agent.tool.refused', { reason: limited.reason }, 'en')) };
  }
  const outbound = tool.egress?.(args) ?? [];
  const egress = outbound.length ? decideEgress(outbound, egressFacts(deps.grants?.web)) : undefined;
  if (egress?.kind === 'secret') {
    const reason = t('agent.tool.egressSecret', { name }, 'en');
    const notice = noticeText({ key: 'safety.egress.secret', params: { name } });
    slot.emit({ type: 'permission', id, name, decision: 'refused', reason, notice });
    return { outcome: failure(t('agent.tool.refused', { reason }, 'en')) };
  }
  let assessment: Assessment;
  try {
    assessment = (await tool.assess?.(args, ctx)) ?? {};
  } catch (err) {
    // A call that cannot work (a name no system can store) fails before anyone is asked.
    if (!(err instanceof ToolError)) throw err;
    if (err.notice) slot.emit({ type: 'warning', message: noticeText(err.notice) });
    return { outcome: failure(err.message) };
  }
  if (assessment.refuse) {
    slot.emit({ type: 'permission', id, name, decision: 'refused', reason: assessment.refuse });
    return { outcome: failure(t('agent.tool.refused', { reason: assessment.refuse }, 'en')) };
  }
  return { assessment, egress, outbound };
}

/**
 * The tool's own assessment, then the one permission policy, then (when it says ask) the person.
 * Without an outcome the call may run (`asked`: a person said yes); otherwise the outcome stands for it.
 */
export async function decideCall(
  prep: Extract<Prepared, { tool: AnyTool }>,
  ctx: ToolContext,
  slot: CallSlot,
  run: RunParts,
): Promise<{ outcome?: CallOutcome; asked?: boolean }> {
  const checked = await checkCall(prep, ctx, slot, run);
  if ('outcome' in checked) return checked;
  const { assessment, egress, outbound } = checked;
  const { tool, name, args } = prep;
  const { deps, signal } = run;
  const id = slot.call.id;
  const sendsOut = egress?.kind === 'ask';
  // A call the tool says must be asked (a script with no sandbox) is asked like a shell command.
  const kind = assessment.asks ? 'shell' : tool.kind;
  const covers = assessment.asks
    ? { call: false, sending: false }
    : ruleCover(deps.grants?.rules, { name, kind, assessment, outbound });
  const decision = decide(kind, run.opts.mode, deps.prompter.interactive, sendsOut, covers);
  const sent = () => {
    recordSent(deps.grants?.web, egress);
    return {};
  };
  if (decision === 'allow') return sent();
  if (decision === 'deny') return { outcome: denied(slot, name, egress) };
  // "Always" was answered for this tool or command prefix earlier in the session: the person's
  // own rule for it (an MCP tool's arguments included; web addresses and searches offer none).
  const standing = assessment.standing;
  const always = standing && deps.grants ? standingGrants(deps.grants, standing) : undefined;
  if (standing && always?.has(standing.key)) return sent();
  const choices = [
    ...(assessment.choices ?? []),
    ...(standing && always ? [{ key: 'a', label: standing.label, grant: ALWAYS_STANDING }] : []),
  ];
  const question = egress?.kind === 'ask' ? egressQuestion(egress.sending) : undefined;
  const warning = [question?.warning, assessment.warning].filter(Boolean).join(' ');
  const preview = [
    tool.preview?.(args, ctx) ?? defaultPreview(args),
    ...(assessment.shows ?? []),
    ...(question?.decoded ?? []),
  ];
  const answer = await deps.prompter.confirmTool(
    {
      name,
      kind: tool.kind,
      args,
      preview: preview.join('\n'),
      ...(warning ? { warning } : {}),
      ...(assessment.summary ? { summary: assessment.summary } : {}),
      ...(choices.length ? { choices } : {}),
      ...(assessment.full ? { full: assessment.full } : {}),
    },
    signal,
  );
  const yes = answer !== false;
  // Only grants that were offered count: a prompter cannot invent a wider sandbox.
  if (typeof answer === 'object') {
    const offered = new Set(choices.map((c) => c.grant));
    ctx.granted = answer.grants.filter((g) => offered.has(g));
  }
  if (signal.aborted) return { outcome: { ...failure(''), content: t('agent.tool.interrupted', {}, 'en') } };
  slot.emit({ type: 'permission', id, name, decision: yes ? 'allowed' : 'denied' });
  if (!yes) return { outcome: failure(t('agent.tool.denied', {}, 'en')) };
  // "Always for this site": later fetches from the same host that carry no data run unasked.
  const host = outbound.find((o) => o.kind === 'url');
  const hostName = host?.kind === 'url' ? siteHost(host.url) : undefined;
  if (hostName && ctx.granted?.includes(ALWAYS_SITE)) deps.grants?.web.hosts.add(hostName);
  if (standing && ctx.granted?.includes(ALWAYS_STANDING)) always?.add(standing.key);
  sent();
  return { asked: true };
}

/** Nobody can be asked: the call is denied, the model told in English, the person in their language. */
function denied(slot: CallSlot, name: string, egress: EgressVerdict | undefined): CallOutcome {
  const id = slot.call.id;
  if (egress?.kind === 'ask') {
    const first = egress.sending[0]!;
    const what = `${first.decoded ?? first.data} (to ${first.to})`;
    const reason = t('agent.tool.egressNoTerminal', { what }, 'en');
    const hint = t(`safety.egress.hint.${first.kind}`);
    const notice = noticeText({
      key: 'safety.egress.noTerminal',
      params: { name, to: first.to, data: first.decoded ?? first.data, hint },
    });
    slot.emit({ type: 'permission', id, name, decision: 'denied', reason, notice });
    return failure(reason);
  }
  const reason = t('agent.tool.noTerminal', {}, 'en');
  slot.emit({ type: 'permission', id, name, decision: 'denied', reason, code: 'no_terminal' });
  return failure(reason);
}
