/**
 * The sandbox's seccomp allow-list, judged by running the BPF program zhi assembles in a small
 * interpreter of classic BPF (the instructions seccomp filters use), over a table of system calls
 * and arguments for x86-64 and arm64: what ordinary programs need is allowed, the rest refused.
 */
import { describe, expect, it } from 'vitest';
import {
  CLONE_NEW_ANY,
  ENOSYS,
  EPERM,
  RET_ALLOW,
  RET_KILL_PROCESS,
  syscallFilter,
} from '../../src/tools/shell/seccomp.js';
import { SYSCALLS } from '../../src/tools/shell/seccomp-syscalls.js';

interface Call {
  nr: number;
  arch: number;
  args?: number[];
}

/** Run a classic BPF program over seccomp_data; only the instructions a filter may use. */
function interpret(prog: Buffer, call: Call): number {
  const data = Buffer.alloc(64);
  data.writeUInt32LE(call.nr >>> 0, 0);
  data.writeUInt32LE(call.arch >>> 0, 4);
  for (const [i, a] of (call.args ?? []).entries()) data.writeBigUInt64LE(BigInt(a), 16 + 8 * i);
  let acc = 0;
  for (let pc = 0, steps = 0; pc * 8 < prog.length && steps < 10_000; steps++) {
    const code = prog.readUInt16LE(pc * 8);
    const jt = prog.readUInt8(pc * 8 + 2);
    const jf = prog.readUInt8(pc * 8 + 3);
    const k = prog.readUInt32LE(pc * 8 + 4);
    pc++;
    switch (code) {
      case 0x20: // LD W ABS
        if (k % 4 !== 0 || k + 4 > 64) throw new Error(`bad load at ${k}`);
        acc = data.readUInt32LE(k);
        break;
      case 0x15: // JEQ K
        pc += acc === k ? jt : jf;
        break;
      case 0x25: // JGT K
        pc += acc > k ? jt : jf;
        break;
      case 0x35: // JGE K
        pc += acc >= k ? jt : jf;
        break;
      case 0x54: // ALU AND K
        acc = (acc & k) >>> 0;
        break;
      case 0x45: // JSET K
        pc += (acc & k) !== 0 ? jt : jf;
        break;
      case 0x06: // RET K
        return k;
      default:
        throw new Error(`unknown instruction 0x${code.toString(16)}`);
    }
  }
  throw new Error('the program ran off its end');
}

const ARCHES = [
  { name: 'x64' as const, audit: 0xc000003e, i: 0 as const },
  { name: 'arm64' as const, audit: 0xc00000b7, i: 1 as const },
];
const errno = (e: number) => 0x00050000 | e;
const AF = { UNIX: 1, INET: 2, INET6: 10, NETLINK: 16, PACKET: 17, ALG: 38, VSOCK: 40 };
const SIGCHLD = 17;
/** Calls not in the table (never allowed), by architecture: [x64, arm64]. */
const DENIED: Record<string, [number, number]> = {
  keyctl: [250, 219],
  add_key: [248, 217],
  request_key: [249, 218],
  unshare: [272, 97],
  setns: [308, 268],
  mount: [165, 40],
  ptrace: [101, 117],
  bpf: [321, 280],
  perf_event_open: [298, 241],
  userfaultfd: [323, 282],
  init_module: [175, 105],
  reboot: [169, 142],
  process_vm_readv: [310, 270],
  open_by_handle_at: [304, 265],
  pivot_root: [155, 41],
};

for (const arch of ARCHES) {
  describe(`seccomp allow-list on ${arch.name}`, () => {
    const prog = syscallFilter(arch.name)!;
    const nr = (name: keyof typeof SYSCALLS) => SYSCALLS[name][arch.i]!;
    const run = (n: number, args: number[] = []) => interpret(prog, { nr: n, arch: arch.audit, args });

    it('fits the kernel limit and allows what everyday programs call', () => {
      expect(prog.length / 8).toBeLessThan(4096);
      for (const name of [
        'read',
        'write',
        'openat',
        'close',
        'mmap',
        'execve',
        'wait4',
        'pipe2',
        'futex',
        'rseq',
      ] as const)
        expect(run(nr(name)), name).toBe(RET_ALLOW);
      expect(run(nr('socketpair'), [AF.UNIX, 1, 0]), 'socketpair').toBe(RET_ALLOW);
      for (const name of ['connect', 'sendto', 'epoll_pwait', 'getrandom', 'statx', 'prlimit64'] as const)
        expect(run(nr(name)), name).toBe(RET_ALLOW);
      expect(run(451)).toBe(RET_ALLOW); // cachestat, newer than the headers
    });

    it.each([
      ['AF_INET', AF.INET, RET_ALLOW],
      ['AF_INET6', AF.INET6, RET_ALLOW],
      ['AF_NETLINK', AF.NETLINK, RET_ALLOW],
      ['AF_UNIX', AF.UNIX, errno(EPERM)],
      ['AF_VSOCK', AF.VSOCK, errno(EPERM)],
      ['AF_PACKET', AF.PACKET, errno(EPERM)],
      ['AF_ALG', AF.ALG, errno(EPERM)],
    ])('socket(%s) answers as listed', (_, family, expected) => {
      expect(run(nr('socket'), [family, 1, 0])).toBe(expected);
      // The high half of the family argument is not part of it: AF_UNIX with junk above is still refused.
      if (family === AF.UNIX) expect(run(nr('socket'), [2 ** 32 + AF.UNIX, 1, 0])).toBe(errno(EPERM));
    });

    it('lets socketpair make streams (with CLOEXEC/NONBLOCK) but no datagram or packet pair', () => {
      const SOCK = { STREAM: 1, DGRAM: 2, SEQPACKET: 5, CLOEXEC: 0o2000000, NONBLOCK: 0o4000 };
      expect(run(nr('socketpair'), [AF.UNIX, SOCK.STREAM | SOCK.CLOEXEC | SOCK.NONBLOCK, 0])).toBe(RET_ALLOW);
      expect(run(nr('socketpair'), [AF.UNIX, SOCK.DGRAM, 0])).toBe(errno(EPERM));
      expect(run(nr('socketpair'), [AF.UNIX, SOCK.DGRAM | SOCK.CLOEXEC, 0])).toBe(errno(EPERM));
      expect(run(nr('socketpair'), [AF.UNIX, SOCK.SEQPACKET, 0])).toBe(errno(EPERM));
    });

    it('lets clone make threads and processes but no namespace; clone3 and io_uring say "not here"', () => {
      expect(run(nr('clone'), [SIGCHLD])).toBe(RET_ALLOW);
      expect(run(nr('clone'), [0x3d0f00])).toBe(RET_ALLOW); // pthread_create's flags
      expect(run(nr('clone'), [SIGCHLD | 0x10000000])).toBe(errno(EPERM)); // CLONE_NEWUSER
      expect(run(nr('clone'), [CLONE_NEW_ANY])).toBe(errno(EPERM));
      expect(run(nr('clone3'))).toBe(errno(ENOSYS));
      for (const name of ['io_uring_setup', 'io_uring_enter', 'io_uring_register'] as const)
        expect(run(nr(name)), name).toBe(errno(ENOSYS));
    });

    it.each(Object.entries(DENIED))('refuses %s with EPERM', (_, numbers) => {
      expect(run(numbers[arch.i])).toBe(errno(EPERM));
    });

    it('answers ENOSYS above the known table, and kills a process of another architecture', () => {
      expect(run(600)).toBe(errno(ENOSYS));
      expect(interpret(prog, { nr: 0, arch: 0x40000003 })).toBe(RET_KILL_PROCESS); // i386
    });
  });
}

describe('seccomp: the x32 ABI on x86-64', () => {
  it('refuses every x32 call, read included', () => {
    const prog = syscallFilter('x64')!;
    expect(interpret(prog, { nr: 0x40000000, arch: 0xc000003e })).toBe(errno(EPERM));
  });

  it('has no filter for an architecture without a table', () => {
    expect(syscallFilter('ia32')).toBeUndefined();
  });
});
