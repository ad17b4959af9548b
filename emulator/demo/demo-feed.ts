import type { Clock } from '../clock'
import type { MailStore, StoredMessage } from '../gmail/mail-store'
import { createDemoEmailGenerator, demoArrivalTimes, demoEmailToRfc822 } from './demo-emails'

export type DemoFeedOptions = {
  mail: MailStore
  clock: Clock
  seed: number
  initialCount: number
  intervalMs: number
}

export type DemoFeed = ReturnType<typeof createDemoFeed>

/** Loads the demo mailbox and, while running, delivers a new notification every `intervalMs`. */
export function createDemoFeed(options: DemoFeedOptions) {
  let generator = createDemoEmailGenerator(options.seed)
  let sequence = 0
  let timer: NodeJS.Timeout | undefined
  let intervalMs = options.intervalMs
  let target: string | undefined

  async function deliver(email: string, date: Date, unread: boolean): Promise<StoredMessage> {
    const demo = generator.next(date)
    sequence += 1
    const raw = demoEmailToRfc822(demo, email, date, sequence)
    const labels = unread && !demo.labels.includes('UNREAD') ? [...demo.labels, 'UNREAD'] : demo.labels
    return options.mail.deliver(email, raw, { labels, internalDate: date.getTime() })
  }

  /** The main demo account gets the full set; every other account a handful, for isolation checks. */
  async function seed(accounts: string[]) {
    const [main, ...others] = accounts
    if (!main) return
    target = main
    const times = demoArrivalTimes(options.initialCount, options.clock.now(), options.seed)
    for (const [index, date] of times.entries()) await deliver(main, date, index >= times.length - 8)
    for (const [position, other] of others.entries()) {
      const otherTimes = demoArrivalTimes(5, options.clock.now(), options.seed + position + 1)
      for (const date of otherTimes) await deliver(other, date, true)
    }
  }

  function start() {
    stop()
    if (intervalMs <= 0 || !target) return
    timer = setInterval(() => {
      void deliverNext().catch(() => undefined)
    }, intervalMs)
    timer.unref()
  }

  function stop() {
    if (timer) clearInterval(timer)
    timer = undefined
  }

  function deliverNext(email = target): Promise<StoredMessage> {
    if (!email) return Promise.reject(new Error('No demo account'))
    return deliver(email, new Date(options.clock.now()), true)
  }

  return {
    seed,
    start,
    stop,
    deliverNext,
    get running() {
      return timer !== undefined
    },
    get intervalMs() {
      return intervalMs
    },
    setInterval: (ms: number) => {
      intervalMs = ms
      if (timer) start()
    },
    reset: () => {
      stop()
      generator = createDemoEmailGenerator(options.seed)
      sequence = 0
    },
  }
}
