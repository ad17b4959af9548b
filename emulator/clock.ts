/** The emulator's notion of "now": real time, shifted or frozen by tests through /_control/clock. */
export type Clock = {
  now: () => number
  advance: (ms: number) => void
  freeze: (at?: number) => void
  unfreeze: () => void
  reset: () => void
  describe: () => { now: string; nowMs: number; frozen: boolean; offsetMs: number }
}

export function createClock(): Clock {
  let offsetMs = 0
  let frozenAt: number | null = null

  const now = () => (frozenAt ?? Date.now()) + offsetMs

  return {
    now,
    advance: (ms) => {
      offsetMs += ms
    },
    freeze: (at) => {
      const current = at ?? now()
      offsetMs = 0
      frozenAt = current
    },
    unfreeze: () => {
      if (frozenAt === null) return
      offsetMs = frozenAt + offsetMs - Date.now()
      frozenAt = null
    },
    reset: () => {
      offsetMs = 0
      frozenAt = null
    },
    describe: () => ({ now: new Date(now()).toISOString(), nowMs: now(), frozen: frozenAt !== null, offsetMs }),
  }
}
