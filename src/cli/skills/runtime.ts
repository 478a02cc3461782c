import { join } from 'node:path';
import { instructionsPrompt } from '../../agent/instructions.js';
import type { Prompter } from '../../agent/loop.js';
import type { PermissionMode } from '../../agent/permissions.js';
import { newSessionGrants, type SessionGrants } from '../../agent/permissions.js';
import { serialPrompter } from '../../agent/skills/run.js';
import type { SkillRuntime } from '../../agent/skills/types.js';
import type { LlmClient, PlatformClient } from '../../llm/types.js';
import type { SkillCatalog } from '../../skills/discovery.js';
import type { Skill } from '../../skills/schema.js';
import { shadowedBy, TrustStore, untrustedOf } from '../../skills/trust.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { readDocument } from '../../tools/files/readers/index.js';
import { loadTools, traitsOf } from '../../tools/index.js';
import { makeClient } from '../client.js';
import type { AppContext } from '../context.js';
import { houseRules } from '../house-rules.js';
import { agreeToPrice, audioPriceLine, parsePriceLine } from '../price-consent.js';
import { toolNamesShown } from '../render/tool-names.js';
import { outputDirOf } from '../settings.js';
import { ALL_TOOL_NAMES, CLI_TOOLS, toolDeps } from '../tools.js';

// Moved to catalog.ts (light enough for `zhi skill list`); re-exported for the other callers.
export { allWarnings, loadCatalog, skillWarnings } from './catalog.js';

export interface RuntimeOptions {
  catalog: SkillCatalog;
  prompter: Prompter;
  mode: PermissionMode;
  signal: AbortSignal;
  llm?: LlmClient;
  client?: PlatformClient;
  /** Given to every agent loop of the run, nested ones too (session spill, run budget). */
  hooks?: SkillRuntime['hooks'];
  /** Where the trust question is written (stderr by default). */
  write?: (text: string) => void;
  /** The session's web approvals (the REPL's, for /run); a new set for a command. */
  grants?: SessionGrants;
}

/** The runtime shared by every skill run of one command or one `/run`, nested runs included. */
export async function createSkillRuntime(ctx: AppContext, o: RuntimeOptions): Promise<SkillRuntime> {
  const client = o.client ?? makeClient(ctx);
  const trust = await TrustStore.open(ctx.paths.trustFile);
  // The folder's house rules reach a skill run as they reach the chat.
  const rules = instructionsPrompt(await houseRules(ctx));
  const prompter = serialPrompter(o.prompter);
  const write = o.write ?? ((text: string) => process.stderr.write(`${text}\n`));
  /** A paid platform read (speech recognition, the file parser) says its price and asks first. */
  const agree = (line: string, signal: AbortSignal) =>
    agreeToPrice(line, { prompter, write, signal, agreed: o.mode === 'auto' || ctx.args.flags.yes });
  return {
    llm: o.llm ?? client,
    client,
    platform: ctx.platform,
    catalog: o.catalog,
    prompter,
    mode: o.mode,
    signal: o.signal,
    grants: o.grants ?? newSessionGrants(ctx.config),
    cwd: ctx.cwd,
    ...(rules ? { houseRules: rules } : {}),
    outputFolder: (skillDir) => outputDirOf(ctx, skillDir),
    skillModel: ctx.config.skillModel,
    mcpServers: ctx.config.mcpServers,
    mcpOauthFile: join(ctx.paths.configDir, 'mcp-oauth.json'),
    builtinTools: ALL_TOOL_NAMES,
    loadTools: (names) => loadTools(toolDeps(ctx.config, client), names, CLI_TOOLS),
    readDocument,
    async ocr(abs, x) {
      const [{ ocrFile }, { OCR_MODEL }] = await Promise.all([
        import('../../tools/ocr/ocr.js'),
        import('../../llm/ocr.js'),
      ]);
      const doc = await ocrFile(client, abs, { display: x.display, signal: x.signal });
      return { markdown: doc.markdown, model: OCR_MODEL, usage: doc.usage };
    },
    async transcribe(abs, x) {
      const { transcribeFile } = await import('../../tools/asr/transcribe.js');
      return transcribeFile(client, abs, {
        display: x.display,
        platform: ctx.platform,
        signal: x.signal,
        consent: (estimate) => agree(audioPriceLine(estimate), x.signal),
      });
    },
    async parseFile(abs, x) {
      const { parseOnPlatform } = await import('../../tools/files/platform-parse.js');
      return parseOnPlatform(client, abs, {
        display: x.display,
        platform: ctx.platform,
        signal: x.signal,
        consent: (estimate) => agree(parsePriceLine(estimate), x.signal),
      });
    },
    ...(o.hooks ? { hooks: o.hooks } : {}),
    untrusted: (skills) => untrustedOf(trust, skills, o.catalog),
    async confirmTrust(pending) {
      if (!prompter.interactive) return false;
      for (const s of pending) {
        write(trustSummary(ctx, s, shadowedBy(s, o.catalog)));
        const what = trustPhrases(s, shadowedBy(s, o.catalog)).join(t('skills.trust.and'));
        const yes = await prompter.ask({ message: t('skills.trust.question', { what }) }, o.signal);
        if (!yes) return false;
      }
      await trust.trust(pending);
      return true;
    },
  };
}

/** What trusting this skill lets it do, in the person's words. */
function trustPhrases(s: Skill, replaced: Skill | undefined): string[] {
  const keys = new Set(s.tools.map((name) => traitsOf(name).trust).filter((k) => k !== undefined));
  const phrases = [...keys].map((key) => t(key));
  if (replaced) {
    const key = replaced.source === 'builtin' ? 'skills.trust.replaceBuiltin' : 'skills.trust.replaceUser';
    phrases.unshift(t(key, { name: replaced.name }));
  }
  return phrases;
}

/** What a person should see before trusting a skill: where it is, what it may do, its instructions. */
export function trustSummary(ctx: AppContext, s: Skill, replaced?: Skill): string {
  const st = ctx.err;
  // The skill's own words (a cloned project's too) are shown, never run.
  const prompt = visible(s.systemPrompt, { keepNewlines: true, keepTabs: true }).split('\n');
  const shown = prompt.slice(0, 20).map((l) => `  ${st.dim('│')} ${l}`);
  if (prompt.length > 20) shown.push(`  ${st.dim(`│ … (+${prompt.length - 20})`)}`);
  return [
    st.bold(t('skills.trust.header', { name: s.name, file: s.file })),
    ...(replaced
      ? [`  ${st.yellow(t('skills.trust.shadowNote', { name: s.name, file: replaced.file }))}`]
      : []),
    `  ${visible(s.description)}`,
    `  ${t('skills.trust.tools', { tools: toolNamesShown(s.tools) })}${s.model ? ` · ${t('skills.trust.model', { model: s.model })}` : ''}`,
    ...shown,
  ].join('\n');
}
