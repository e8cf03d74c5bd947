export interface Periodic {
  /** Stops the ticks; resolves once the run under way, if any, has ended. */
  stop(): Promise<void>;
}

/**
 * Runs `work` every `ms` (and once at the start when `immediately`), one run
 * at a time: a tick that finds the last run still under way (a large import's
 * indexing, a slow database) lets it be. A failed run goes to `onError`; the
 * next tick runs again.
 */
export function runEvery(
  ms: number,
  work: () => Promise<void>,
  onError: (error: unknown) => void,
  { immediately = false } = {},
): Periodic {
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= work()
      .catch(onError)
      .finally(() => (running = undefined));
  };
  if (immediately) tick();
  const timer = setInterval(tick, ms);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
