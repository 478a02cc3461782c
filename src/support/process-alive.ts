/**
 * Whether a process of this id is running on this machine. One of another user's counts as
 * running (signalling it is refused, not missing). A pid can be reused after its process ended:
 * callers use this only to tell whether something a process left behind may be cleaned up.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
