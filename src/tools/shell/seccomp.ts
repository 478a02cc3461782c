/**
 * The sandbox's seccomp filter (issue 37): an allow-list of system calls, everything else refused.
 * Shaped after Docker's default profile (what ordinary programs need, nothing that needs a
 * capability) and Anthropic's sandbox-runtime (no unix sockets); assembled here in TypeScript as
 * classic BPF, so nothing native ships, for x86-64 and arm64. Other architectures get no filter.
 *
 * - Allowed: files, memory, processes, signals, time, pipes, polling, IPv4/IPv6/netlink sockets,
 *   `socketpair` of streams (Node and Python talk to their children over one; a connected stream
 *   reaches no path), `clone` without namespace flags.
 * - `io_uring_*` (it does what the filter would refuse, unseen) and `clone3` (its flags hide in
 *   memory) answer ENOSYS, so libuv, Python and glibc fall back as on an older kernel; a call newer
 *   than the table answers ENOSYS too, as runc does.
 * - Everything else answers EPERM: `socket` of any family but AF_INET, AF_INET6 and AF_NETLINK
 *   (so AF_UNIX, AF_VSOCK, AF_PACKET…), `socketpair` of datagrams or packets (they could `sendto` a
 *   socket bound in the working folder), the keyring (`keyctl`, `add_key`, `request_key`), new
 *   namespaces (`unshare`, `setns`, `clone` with CLONE_NEW*), `mount`, `ptrace`, `bpf`,
 *   `perf_event_open`, `userfaultfd`, kernel modules, clocks, reboot…
 * - A call of another ABI (x32 on x86-64) answers EPERM; a process of another architecture
 *   (32-bit code, with its own numbers) is killed rather than judged by the wrong table.
 */
import { pushAll } from '../../support/arrays.js';
import { HIGHEST_KNOWN, SYSCALLS, type SyscallName } from './seccomp-syscalls.js';

// Classic BPF opcodes and seccomp return values (linux/filter.h, linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGT_K = 0x25;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;
const ALU_AND_K = 0x54;
export const RET_ALLOW = 0x7fff0000;
export const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
export const EPERM = 1;
export const ENOSYS = 38;
const X32_SYSCALL_BIT = 0x40000000;

/** Address families `socket` may create. */
export const SOCKET_FAMILIES = { AF_INET: 2, AF_INET6: 10, AF_NETLINK: 16 } as const;
/** CLONE_NEWTIME, NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET. */
export const CLONE_NEW_ANY =
  0x80 | 0x20000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000;

/** Calls that answer ENOSYS: their callers probe and fall back. */
const NOT_THERE: readonly SyscallName[] = ['io_uring_setup', 'io_uring_enter', 'io_uring_register', 'clone3'];
/** Calls with a rule of their own (their arguments decide). */
const BY_ARGUMENT: readonly SyscallName[] = ['socket', 'socketpair', 'clone'];
/** socketpair's one allowed type (the low bits; SOCK_CLOEXEC and SOCK_NONBLOCK may be or-ed in). */
const SOCK_STREAM = 1;
const SOCK_TYPE_MASK = 0xf;

interface Arch {
  audit: number;
  index: 0 | 1;
  /** x86-64 also answers to the x32 ABI (numbers with bit 30 set). */
  x32?: boolean;
}

const ARCHES: Partial<Record<NodeJS.Architecture, Arch>> = {
  x64: { audit: 0xc000003e, index: 0, x32: true },
  arm64: { audit: 0xc00000b7, index: 1 },
};

/** An instruction whose jumps name labels, resolved when the program is assembled. */
type Step = { code: number; k: number; jt?: string; jf?: string } | { label: string };

/** seccomp_data: nr at 0, arch at 4, args[i] at 16 + 8i (the low half first: both are little-endian). */
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;
const ARG1_LOW = 24;

const ret = (k: number): Step => ({ code: RET_K, k });
const load = (offset: number): Step => ({ code: LD_W_ABS, k: offset });

/** The allowed numbers as ranges, so the program stays short: [first, last]. */
function ranges(numbers: number[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const n of [...new Set(numbers)].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    if (last && last[1] === n - 1) last[1] = n;
    else out.push([n, n]);
  }
  return out;
}

function numberOf(name: SyscallName, a: Arch): number | null {
  return SYSCALLS[name][a.index];
}

/** `if (A == k) return value`: the return inline, so no jump reaches further than one step. */
function returnIf(code: number, k: number, value: number): Step[] {
  const label = `after-${nextLabel++}`;
  return [{ code, k, jf: label }, ret(value), { label }];
}

let nextLabel = 0;

/** The filter's steps for one architecture. */
function steps(a: Arch): Step[] {
  const s: Step[] = [load(ARCH), { code: JEQ_K, k: a.audit, jt: 'native' }, ret(RET_KILL_PROCESS)];
  s.push({ label: 'native' }, load(NR));
  if (a.x32) pushAll(s, returnIf(JGE_K, X32_SYSCALL_BIT, RET_ERRNO | EPERM));
  // socket(family, …): only the internet families and netlink.
  s.push({ code: JEQ_K, k: numberOf('socket', a) ?? -1, jf: 'not-socket' }, load(ARG0_LOW));
  for (const family of Object.values(SOCKET_FAMILIES)) s.push({ code: JEQ_K, k: family, jt: 'socket-ok' });
  s.push(ret(RET_ERRNO | EPERM), { label: 'socket-ok' }, ret(RET_ALLOW), { label: 'not-socket' });
  // socketpair(AF_UNIX, type, …): streams only. A datagram pair could sendto() any socket path it
  // sees — one a program bound inside the working folder — and a connected stream cannot.
  s.push({ code: JEQ_K, k: numberOf('socketpair', a) ?? -1, jf: 'not-pair' }, load(ARG1_LOW));
  s.push({ code: ALU_AND_K, k: SOCK_TYPE_MASK }, { code: JEQ_K, k: SOCK_STREAM, jt: 'pair-ok' });
  s.push(ret(RET_ERRNO | EPERM), { label: 'pair-ok' }, ret(RET_ALLOW), { label: 'not-pair' });
  // clone(flags, …): no new namespace.
  s.push({ code: JEQ_K, k: numberOf('clone', a) ?? -1, jf: 'not-clone' }, load(ARG0_LOW));
  s.push({ code: JSET_K, k: CLONE_NEW_ANY, jf: 'clone-ok' }, ret(RET_ERRNO | EPERM));
  s.push({ label: 'clone-ok' }, ret(RET_ALLOW), { label: 'not-clone' });
  for (const name of NOT_THERE) {
    const nr = numberOf(name, a);
    if (nr !== null) pushAll(s, returnIf(JEQ_K, nr, RET_ERRNO | ENOSYS));
  }
  const skip = new Set<SyscallName>([...NOT_THERE, ...BY_ARGUMENT]);
  const allowed = (Object.keys(SYSCALLS) as SyscallName[])
    .filter((name) => !skip.has(name))
    .flatMap((name) => numberOf(name, a) ?? []);
  for (const [first, last] of ranges(allowed)) {
    if (first === last) pushAll(s, returnIf(JEQ_K, first, RET_ALLOW));
    else {
      const label = `after-${nextLabel++}`;
      s.push({ code: JGE_K, k: first, jf: label }, { code: JGT_K, k: last, jt: label }, ret(RET_ALLOW), {
        label,
      });
    }
  }
  pushAll(s, returnIf(JGT_K, HIGHEST_KNOWN, RET_ERRNO | ENOSYS));
  s.push(ret(RET_ERRNO | EPERM));
  return s;
}

/** Labels to offsets: a jump is relative to the next instruction, at most 255 ahead. */
function assemble(program: Step[]): Buffer {
  const at = new Map<string, number>();
  let pc = 0;
  for (const step of program) {
    if ('label' in step) at.set(step.label, pc);
    else pc++;
  }
  const buf = Buffer.alloc(pc * 8);
  pc = 0;
  for (const step of program) {
    if ('label' in step) continue;
    const offset = (label: string | undefined) => {
      if (label === undefined) return 0;
      const to = at.get(label);
      const jump = to === undefined ? -1 : to - pc - 1;
      if (jump < 0 || jump > 255) throw new Error(`seccomp: jump to ${label} out of range (${jump})`);
      return jump;
    };
    buf.writeUInt16LE(step.code, pc * 8);
    buf.writeUInt8(offset(step.jt), pc * 8 + 2);
    buf.writeUInt8(offset(step.jf), pc * 8 + 3);
    buf.writeUInt32LE(step.k >>> 0, pc * 8 + 4);
    pc++;
  }
  return buf;
}

/** The filter as bytes for `bwrap --seccomp FD`, or undefined on an architecture without one. */
export function syscallFilter(arch: NodeJS.Architecture = process.arch): Buffer | undefined {
  const a = ARCHES[arch];
  return a ? assemble(steps(a)) : undefined;
}

/** How many system calls the allow-list lets through on this architecture (for `zhi doctor`). */
export function allowedCount(arch: NodeJS.Architecture = process.arch): number | undefined {
  const a = ARCHES[arch];
  if (!a) return undefined;
  const skip = new Set<SyscallName>(NOT_THERE);
  return (Object.keys(SYSCALLS) as SyscallName[]).filter((n) => !skip.has(n) && numberOf(n, a) !== null)
    .length;
}
