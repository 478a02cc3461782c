import { containsKnownSecret } from '../../support/redact.js';

/**
 * Does a line look like it contains a secret (so it must not be written to the history file)?
 * Key-shaped strings (Zhipu `<32 hex>.<secret>`, `sk-…`, GitHub/AWS/Google/Slack tokens, JWTs,
 * bearer tokens) and assignments such as `password=…`, `token: …`, `api_key=…`, `密码：…`.
 * Ordinary sentences that merely mention a password ("how do I reset my password") are kept.
 */
const PATTERNS: RegExp[] = [
  /\b[0-9a-f]{32}\.[A-Za-z0-9]{8,}/i,
  /\bsk-[A-Za-z0-9_-]{16,}/,
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/,
  /\bAKIA[0-9A-Z]{16}\b/,
  /\bAIza[0-9A-Za-z_-]{30,}/,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\./,
  /\bbearer\s+[A-Za-z0-9._~+/-]{16,}/i,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  // name = value / name: value, for names that hold secrets.
  /(?:^|[^A-Za-z0-9])(?:api[_-]?key|apikey|access[_-]?key|secret(?:[_-]?key)?|client[_-]?secret|password|passwd|pwd|pass|token|auth[_-]?token|access[_-]?token|refresh[_-]?token|private[_-]?key|credentials?)["']?\s*[:=]\s*\S+/i,
  /(?:密码|口令|密钥|令牌|秘钥)\s*(?:[:：=]|是|为)\s*\S+/,
  // `zhi config set api_key …` or `/config set api_key …`
  /\bconfig\s+set\s+api[_-]?key\s+\S+/i,
  // URL with credentials: https://user:pass@host
  /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i,
];

/** Key-shaped, an assignment of a secret, or the configured API key itself (whatever its shape). */
export function looksSecret(line: string): boolean {
  return containsKnownSecret(line) || PATTERNS.some((re) => re.test(line));
}
