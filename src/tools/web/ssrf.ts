/**
 * Where web_fetch may connect (design §3): only public unicast addresses. The URL is parsed with
 * the WHATWG parser (which turns `127.1`, `2130706433`, `0x7f000001` and `0177.0.0.1` into
 * `127.0.0.1`), names are resolved, and EVERY address must be public: not loopback, private,
 * link-local, carrier-grade NAT, multicast, reserved, unspecified, broadcast, unique-local, a
 * cloud metadata address, nor an IPv4-mapped / NAT64 / 6to4 / Teredo wrapping of one of those.
 * The caller then connects to the address that was checked, never resolving the name again.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ToolError } from '../types.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all of its addresses. Injected in tests. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export interface CheckedTarget {
  url: URL;
  /** Host name without IPv6 brackets or trailing dots. */
  hostname: string;
  /** The address to connect to: checked, and the only one used. */
  address: string;
  family: 4 | 6;
}

const BLOCKED_NAMES = new Set([
  'localhost',
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.internal',
]);

const METADATA = new Set([
  '169.254.169.254',
  '169.254.170.2',
  '100.100.100.200',
  '168.63.129.16',
  '192.0.0.192',
  'fd00:ec2::254',
]);

/** Why an address must not be contacted, or undefined when it is a public unicast address. */
export function addressProblem(text: string): string | undefined {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(text);
  } catch {
    return 'it is not a valid IP address';
  }
  return problemOf(addr);
}

function problemOf(addr: ipaddr.IPv4 | ipaddr.IPv6): string | undefined {
  const normal = addr.toNormalizedString();
  if (METADATA.has(normal) || METADATA.has(addr.toString())) return 'it is a cloud metadata address';
  if (addr.kind() === 'ipv4') {
    const range = addr.range();
    return range === 'unicast' ? undefined : `it is a ${describeRange(range)} address`;
  }
  const v6 = addr as ipaddr.IPv6;
  const range = v6.range();
  const p = v6.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const wrapped = (inner: ipaddr.IPv4, form: string) => {
    const problem = problemOf(inner);
    return problem
      ? `it is ${form} of ${inner.toString()}, and ${problem.replace(/^it /, 'that ')}`
      : undefined;
  };
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return wrapped(v4(p[6]!, p[7]!), 'an IPv4-mapped form');
    case 'rfc6052':
      // 64:ff9b::/96 carries a public IPv4 address on NAT64 networks; 64:ff9b:1::/48 is local use.
      if (p[1] === 0xff9b && p[2] === 0) return wrapped(v4(p[6]!, p[7]!), 'the NAT64 form');
      return 'it is a local-use NAT64 address';
    case '6to4':
      return wrapped(v4(p[1]!, p[2]!), 'the 6to4 form');
    case 'teredo':
      return (
        wrapped(v4(p[2]!, p[3]!), 'a Teredo address (server)') ??
        wrapped(v4(~p[6]! & 0xffff, ~p[7]! & 0xffff), 'a Teredo address (client)')
      );
    case 'unicast':
      // Deprecated IPv4-compatible form ::a.b.c.d.
      if (p.slice(0, 6).every((x) => x === 0)) return wrapped(v4(p[6]!, p[7]!), 'an IPv4-compatible form');
      return undefined;
    default:
      return `it is a ${describeRange(range)} address`;
  }
}

function describeRange(range: string): string {
  switch (range) {
    case 'loopback':
      return 'loopback (this computer)';
    case 'private':
      return 'private network';
    case 'linkLocal':
      return 'link-local';
    case 'carrierGradeNat':
      return 'carrier-grade NAT (shared private)';
    case 'uniqueLocal':
      return 'unique-local (private IPv6)';
    case 'unspecified':
      return 'unspecified (0.0.0.0 or ::)';
    default:
      return range.replace(/([A-Z])/g, ' $1').toLowerCase();
  }
}

/** Parse and check a URL's scheme and host name (no DNS yet). */
export function parseTarget(raw: string | URL): { url: URL; hostname: string } {
  let url: URL;
  try {
    url = raw instanceof URL ? raw : new URL(raw.trim());
  } catch {
    throw new ToolError(
      `"${String(raw).slice(0, 200)}" is not a valid URL. Give a full address such as https://example.com/page.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError(`Only http:// and https:// addresses can be fetched, not ${url.protocol}//.`);
  }
  const hostname = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
  if (!hostname) throw new ToolError(`The URL ${url.href} has no host name.`);
  if (BLOCKED_NAMES.has(hostname) || hostname.endsWith('.localhost')) {
    throw new ToolError(refusal(url, `"${hostname}" names this computer or a cloud metadata service`));
  }
  return { url, hostname };
}

function refusal(url: URL, why: string): string {
  return `Refused to fetch ${url.href}: ${why}. web_fetch only reaches public internet addresses; local, private and metadata addresses are blocked in every spelling.`;
}

/**
 * Check a URL completely: scheme, host name, and every address it resolves to. Returns the one
 * address to connect to. A DNS failure is an error, never a pass.
 */
export async function checkUrl(
  raw: string | URL,
  resolve: Resolver = systemResolver,
): Promise<CheckedTarget> {
  const { url, hostname } = parseTarget(raw);
  if (isIP(hostname)) {
    const problem = addressProblem(hostname);
    if (problem) throw new ToolError(refusal(url, problem));
    return { url, hostname, address: hostname, family: isIP(hostname) === 6 ? 6 : 4 };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(hostname);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOTFOUND' || code === 'ENODATA'
        ? 'the name does not exist'
        : `the lookup failed (${code ?? (err as Error).message})`;
    throw new ToolError(`Cannot fetch ${url.href}: ${why}. Check the address for typos.`);
  }
  if (!addresses.length) throw new ToolError(`Cannot fetch ${url.href}: the name has no addresses.`);
  for (const a of addresses) {
    const problem = addressProblem(a.address);
    if (problem)
      throw new ToolError(
        refusal(url, `"${hostname}" resolves to ${a.address}, and ${problem.replace(/^it /, 'that ')}`),
      );
  }
  const chosen = addresses.find((a) => a.family === 4) ?? addresses[0]!;
  return { url, hostname, address: chosen.address, family: chosen.family };
}
