/**
 * The `shell_sandbox` setting, set once at start-up. Its own tiny module so that reading the
 * config does not load the sandbox runner.
 */
export type SandboxMode = 'auto' | 'off';

let mode: SandboxMode = 'auto';

export function setSandboxMode(m: SandboxMode): void {
  mode = m;
}

export function sandboxMode(): SandboxMode {
  return mode;
}
