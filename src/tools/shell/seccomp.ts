/**
 * A seccomp filter that refuses `socket(AF_UNIX, …)` inside the sandbox, so an approved command
 * cannot reach a unix socket of the host through the file system (the D-Bus session bus, the
 * Docker socket, ssh and gpg agents): bubblewrap's `--unshare-net` only separates abstract
 * sockets. This is what Anthropic's sandbox-runtime does (its pre-built BPF for x86-64 and
 * arm64); here the few instructions are assembled in TypeScript so nothing native ships.
 * `socketpair` stays allowed (programs use it for pipes to their own children). Other
 * architectures get no filter; the sandbox then also hides /run (see bwrapArgs).
 */

// Classic BPF opcodes and seccomp return values (linux/filter.h, linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_EPERM = 0x00050000 | 1;
const AF_UNIX = 1;
const X32_SYSCALL_BIT = 0x40000000;

interface Arch {
  audit: number;
  socket: number;
  /** x86-64 also answers to the x32 ABI (syscall numbers with bit 30 set): refused outright. */
  x32?: boolean;
}

const ARCHES: Partial<Record<NodeJS.Architecture, Arch>> = {
  x64: { audit: 0xc000003e, socket: 41, x32: true },
  arm64: { audit: 0xc00000b7, socket: 198 },
};

type Insn = [code: number, jt: number, jf: number, k: number];

/**
 * The filter as bytes for `bwrap --seccomp FD`, or undefined on an architecture without one.
 * A process of another architecture (32-bit code on x86-64, which has its own socket call) is
 * killed rather than let through.
 */
export function unixSocketFilter(arch: NodeJS.Architecture = process.arch): Buffer | undefined {
  const a = ARCHES[arch];
  if (!a) return undefined;
  const prog: Insn[] = [
    [LD_W_ABS, 0, 0, 4], // seccomp_data.arch
    [JEQ_K, 1, 0, a.audit],
    [RET_K, 0, 0, RET_KILL_PROCESS],
    [LD_W_ABS, 0, 0, 0], // seccomp_data.nr
  ];
  if (a.x32) prog.push([JGE_K, 0, 1, X32_SYSCALL_BIT], [RET_K, 0, 0, RET_EPERM]);
  prog.push(
    [JEQ_K, 0, 3, a.socket],
    [LD_W_ABS, 0, 0, 16], // low half of args[0], the address family (little-endian)
    [JEQ_K, 0, 1, AF_UNIX],
    [RET_K, 0, 0, RET_EPERM],
    [RET_K, 0, 0, RET_ALLOW],
  );
  const buf = Buffer.alloc(prog.length * 8);
  prog.forEach(([code, jt, jf, k], i) => {
    buf.writeUInt16LE(code, i * 8);
    buf.writeUInt8(jt, i * 8 + 2);
    buf.writeUInt8(jf, i * 8 + 3);
    buf.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return buf;
}
