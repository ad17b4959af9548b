import type { Logger } from './logger'

export type TickLoop = {
  /** Runs `work` now unless a run is under way (then that run's promise). */
  tick(): Promise<void>
  /** No more ticks; waits for the run under way. */
  stop(): Promise<void>
}

/**
 * Runs `work` every `tickMs` and on demand, one run at a time: a tick during a run joins it
 * instead of starting another. `work` is given `isStopped`, which long work checks between steps. A failed run is logged as `what failed`; the next tick tries again.
 * The first run starts at once; the timer does not keep the process alive.
 */
export function startTickLoop(work: (isStopped: () => boolean) => Promise<void>, { tickMs, logger, what }: { tickMs: number; logger: Logger; what: string }): TickLoop {
  let running: Promise<void> | undefined
  let stopped = false
  const isStopped = () => stopped
  function tick() {
    running ??= work(isStopped)
      .catch((error: unknown) => logger.error({ err: error }, `${what} failed`))
      .finally(() => {
        running = undefined
      })
    return running
  }
  const timer = setInterval(() => void tick(), tickMs)
  timer.unref()
  void tick()
  return {
    tick,
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}
