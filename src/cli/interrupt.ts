/**
 * Run something that Ctrl+C should cancel: SIGINT aborts the signal given to `fn` (instead of
 * killing the process), and the handler is removed afterwards whatever happens.
 */
export async function withInterrupt<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.on('SIGINT', onSigint);
  try {
    return await fn(abort.signal);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** Hand every event of a run to `onEvent` and return the run's result. */
export async function pump<E, R>(run: AsyncGenerator<E, R>, onEvent: (ev: E) => void): Promise<R> {
  let step = await run.next();
  while (!step.done) {
    onEvent(step.value);
    step = await run.next();
  }
  return step.value;
}
