/**
 * A project's own MCP servers: `.zhi/mcp.yaml` in the working folder, the same `mcp_servers:`
 * block as config.yaml. A cloned repository must not start programs (or reach addresses) on its
 * own, so before the first message that would start them the person is shown what the file lists
 * and asked; the answer is kept per folder and file content in `trusted-mcp.json` in zhi's data
 * folder (an edited file asks again; a "no" is not asked again for the same content). Without a
 * terminal nobody can say yes: the servers are left out, with a warning saying so. A name the
 * person's own config.yaml already uses stays theirs.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../support/atomic.js';
import { t } from '../../support/i18n/index.js';
import {
  type McpServerConfig,
  mcpProblemText,
  mcpServerProblem,
  normalizeServer,
} from '../../support/mcp-config.js';
import { visible } from '../../support/sanitize.js';

export const PROJECT_FILE = join('.zhi', 'mcp.yaml');

export const hasProjectServers = (cwd: string): boolean => existsSync(join(cwd, PROJECT_FILE));

interface Listed {
  servers: Record<string, McpServerConfig>;
  /** One line per entry left out, in the person's language. */
  problems: string[];
  hash: string;
}

/** The file's servers (checked entry by entry, as config.yaml's are), or undefined without a usable file. */
export async function readProjectServers(cwd: string, taken: readonly string[]): Promise<Listed | undefined> {
  const file = join(cwd, PROJECT_FILE);
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const { parseYamlSafe } = await import('../../support/yaml.js');
  const parsed = parseYamlSafe(text, { limits: { maxBytes: 64 * 1024 } });
  const block = parsed.ok ? (parsed.value as { mcp_servers?: unknown } | null)?.mcp_servers : undefined;
  const hash = createHash('sha256').update(text).digest('hex');
  if (typeof block !== 'object' || block === null || Array.isArray(block))
    return { servers: {}, problems: [t('mcp.project.unreadable', { file })], hash };
  const servers: Record<string, McpServerConfig> = {};
  const problems: string[] = [];
  for (const [name, v] of Object.entries(block as Record<string, unknown>)) {
    const problem = mcpServerProblem(name, v);
    if (problem) problems.push(t('mcp.warn.badEntry', { name, file, problem: mcpProblemText(problem) }));
    else if (taken.includes(name)) problems.push(t('mcp.project.taken', { name: visible(name), file }));
    else servers[name] = normalizeServer(v as Record<string, unknown>);
  }
  return { servers, problems, hash };
}

interface TrustFile {
  version: 1;
  /** folder → the file's sha256 when the person answered, and the answer. */
  folders: Record<string, { hash: string; allowed: boolean; at: string }>;
}

async function readTrust(path: string): Promise<TrustFile> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<TrustFile>;
    if (parsed?.folders && typeof parsed.folders === 'object') return { version: 1, folders: parsed.folders };
  } catch {
    // Missing or damaged: nothing is decided yet (asking again is the safe side).
  }
  return { version: 1, folders: {} };
}

/** How each server starts, as the person reads it before saying yes (the file's words shown, never run). */
export function serverLines(servers: Record<string, McpServerConfig>): string[] {
  return Object.entries(servers).map(([name, s]) => {
    const how = s.url ?? [s.command, ...(s.args ?? [])].join(' ');
    const env = s.env ? ` (${Object.keys(s.env).join(', ')})` : '';
    return `  ${visible(name)}: ${visible(how)}${env}`;
  });
}

export interface ProjectAsk {
  /** A yes/no question; absent where nobody can answer. */
  ask?: (message: string, detail: string) => Promise<boolean>;
  warn(line: string): void;
}

/** The project's servers the person allows (asked once per folder and content). */
export async function allowedProjectServers(
  cwd: string,
  dataDir: string,
  taken: readonly string[],
  io: ProjectAsk,
): Promise<Record<string, McpServerConfig>> {
  const listed = await readProjectServers(cwd, taken);
  if (!listed) return {};
  for (const p of listed.problems) io.warn(p);
  if (!Object.keys(listed.servers).length) return {};
  const store = join(dataDir, 'trusted-mcp.json');
  const trust = await readTrust(store);
  const known = trust.folders[cwd];
  if (known?.hash === listed.hash) return known.allowed ? listed.servers : {};
  const names = Object.keys(listed.servers).join(', ');
  if (!io.ask) {
    io.warn(t('mcp.project.noTerminal', { file: join(cwd, PROJECT_FILE), names }));
    return {};
  }
  const allowed = await io.ask(
    t('mcp.project.question', { file: PROJECT_FILE, names }),
    serverLines(listed.servers).join('\n'),
  );
  trust.folders[cwd] = { hash: listed.hash, allowed, at: new Date().toISOString() };
  await writeFileAtomic(store, `${JSON.stringify(trust, null, 2)}\n`, 0o600);
  return allowed ? listed.servers : {};
}
