/**
 * A Python program that tries what issue 37's red team used to get through the sandbox — io_uring,
 * the session keyring, AF_VSOCK and AF_UNIX sockets — and prints one line per try: the return value
 * and errno, or the errno of the refused socket. socketpair, which programs need, must still work.
 */
const NUMBERS: Record<string, { io_uring_setup: number; keyctl: number }> = {
  x64: { io_uring_setup: 425, keyctl: 250 },
  arm64: { io_uring_setup: 425, keyctl: 219 },
};

export function syscallProbe(arch: NodeJS.Architecture = process.arch): string {
  const n = NUMBERS[arch] ?? NUMBERS.x64!;
  return [
    'import ctypes, socket',
    'libc = ctypes.CDLL(None, use_errno=True)',
    'def call(nr, *a):',
    '    r = libc.syscall(nr, *a)',
    '    return r, ctypes.get_errno()',
    'params = ctypes.create_string_buffer(120)',
    `print("io_uring", *call(${n.io_uring_setup}, 8, params))`,
    `print("keyctl", *call(${n.keyctl}, 0, -3, 0))`,
    'for name, fam in (("vsock", 40), ("unix", 1)):',
    '    try:',
    '        socket.socket(fam, socket.SOCK_STREAM)',
    '        print(name, "open")',
    '    except OSError as e:',
    '        print(name, "refused", e.errno)',
    'a, b = socket.socketpair()',
    'a.send(b"x")',
    'print("socketpair", b.recv(1).decode())',
    // A datagram socket pair could send to any socket path it sees — the journal, or one a
    // program bound inside the working folder: no such pair is made.
    'try:',
    '    d, _ = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)',
    '    d.sendto(b"<13>zhi probe", "inside.sock")',
    '    print("dgram pair sent")',
    'except OSError as e:',
    '    print("dgram pair refused", e.errno)',
  ].join('\n');
}

/** What the probe prints inside the sandbox: io_uring says ENOSYS (38), the rest EPERM (1). */
export const PROBE_REFUSED = [
  /io_uring -1 38/,
  /keyctl -1 1\b/,
  /vsock refused 1\b/,
  /unix refused 1\b/,
  /socketpair x/,
  /dgram pair refused 1\b/,
];
