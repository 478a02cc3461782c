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

/**
 * Whether `name`, a leftover named with its zhi's process id (the first group of `pattern`),
 * belongs to another zhi that is gone: then it may be removed.
 */
export function leftByGoneProcess(name: string, pattern: RegExp): boolean {
  const pid = Number(pattern.exec(name)?.[1]);
  return Boolean(pid) && pid !== process.pid && !processAlive(pid);
}
