import { describe, expect, it } from 'vitest'
import { createLogger } from './logger'
import { startTickLoop } from './tick-loop'

describe('startTickLoop', () => {
  it('runs one run at a time: a tick during a run joins it, and stop waits for it', async () => {
    let runs = 0
    let release!: () => void
    const loop = startTickLoop(
      async () => {
        runs++
        await new Promise<void>((resolve) => (release = resolve))
      },
      { tickMs: 60_000, logger: createLogger('silent'), what: 'test' },
    )
    const joined = loop.tick()
    expect(runs).toBe(1)
    const stopping = loop.stop()
    release()
    await joined
    await stopping
    expect(runs).toBe(1)
  })

  it('goes on after a failed run, and tells long work when it is stopped', async () => {
    let runs = 0
    let seenStopped = false
    const loop = startTickLoop(
      async (isStopped) => {
        runs++
        if (runs === 1) throw new Error('boom')
        seenStopped = isStopped()
      },
      { tickMs: 60_000, logger: createLogger('silent'), what: 'test' },
    )
    await loop.tick()
    await loop.tick()
    expect(runs).toBe(2)
    expect(seenStopped).toBe(false)
    await loop.stop()
    await loop.tick()
    expect(seenStopped).toBe(true)
  })
})
