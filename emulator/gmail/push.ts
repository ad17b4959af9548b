import { randomInt } from 'node:crypto'
import type { Clock } from '../clock'
import type { HistoryRecord, Mailbox } from './mail-store'

export type PushDelivery = {
  messageId: string
  url: string | null
  subscription: string
  emailAddress: string
  historyId: number
  publishTime: string
  attempts: number
  status: 'delivered' | 'failed' | 'pending' | 'no-push-url'
  lastStatusCode?: number
  lastError?: string
}

const MAX_ATTEMPTS = 4
const RETRY_BASE_MS = 100

export type PushDispatcher = ReturnType<typeof createPushDispatcher>

/**
 * Gmail publishes {emailAddress, historyId} to the watch's Pub/Sub topic; a push subscription POSTs
 * it to an endpoint. Non-2xx answers are retried with backoff, as Pub/Sub does.
 * https://developers.google.com/workspace/gmail/api/guides/push
 */
export function createPushDispatcher(options: { clock: Clock; url: string | undefined; subscription: string | undefined }) {
  let url = options.url
  let deliveries: PushDelivery[] = []
  const inFlight = new Set<Promise<void>>()
  const waits = new Map<NodeJS.Timeout, () => void>()
  let stopped = false

  function subscriptionFor(topicName: string): string {
    if (options.subscription) return options.subscription
    const project = /^projects\/([^/]+)\//.exec(topicName)?.[1] ?? 'mailrow-emulator'
    return `projects/${project}/subscriptions/gmail-push`
  }

  function matchesWatch(mailbox: Mailbox, record: HistoryRecord): boolean {
    const watch = mailbox.watch
    if (!watch || watch.expiration <= options.clock.now()) return false
    if (!watch.labelIds.length) return true
    const labels = [
      ...(record.messagesAdded ?? []).flatMap((item) => item.message.labelIds),
      ...(record.labelsAdded ?? []).flatMap((item) => [...item.message.labelIds, ...item.labelIds]),
      ...(record.labelsRemoved ?? []).flatMap((item) => [...item.message.labelIds, ...item.labelIds]),
      ...(record.messagesDeleted ?? []).flatMap((item) => item.message.labelIds),
    ]
    const touches = watch.labelIds.some((id) => labels.includes(id))
    return watch.labelFilterBehavior === 'exclude' ? !touches : touches
  }

  async function post(delivery: PushDelivery): Promise<void> {
    if (!delivery.url || stopped) return
    delivery.attempts += 1
    try {
      const data = Buffer.from(JSON.stringify({ emailAddress: delivery.emailAddress, historyId: delivery.historyId })).toString('base64')
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'APIs-Google; (+https://developers.google.com/webmasters/APIs-Google.html)',
        },
        body: JSON.stringify({
          message: {
            data,
            messageId: delivery.messageId,
            message_id: delivery.messageId,
            publishTime: delivery.publishTime,
            publish_time: delivery.publishTime,
          },
          subscription: delivery.subscription,
        }),
      })
      await response.arrayBuffer().catch(() => undefined)
      delivery.lastStatusCode = response.status
      if ([102, 200, 201, 202, 204].includes(response.status)) {
        delivery.status = 'delivered'
        return
      }
      delivery.lastError = `HTTP ${response.status}`
    } catch (error) {
      delivery.lastError = error instanceof Error ? error.message : String(error)
    }
    if (delivery.attempts >= MAX_ATTEMPTS || stopped) {
      delivery.status = 'failed'
      return
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        waits.delete(timer)
        resolve()
      }, RETRY_BASE_MS * 2 ** (delivery.attempts - 1))
      timer.unref()
      waits.set(timer, resolve)
    })
    return post(delivery)
  }

  function onHistory(mailbox: Mailbox, record: HistoryRecord) {
    if (!matchesWatch(mailbox, record)) return
    const delivery: PushDelivery = {
      messageId: String(randomInt(1_000_000_000, 2_000_000_000)) + String(randomInt(100_000, 999_999)),
      url: url ?? null,
      subscription: subscriptionFor(mailbox.watch!.topicName),
      emailAddress: mailbox.account.email,
      historyId: record.id,
      publishTime: new Date(options.clock.now()).toISOString(),
      attempts: 0,
      status: url ? 'pending' : 'no-push-url',
    }
    deliveries.push(delivery)
    if (deliveries.length > 1000) deliveries = deliveries.slice(-1000)
    if (!url) return
    const task = post(delivery).finally(() => inFlight.delete(task))
    inFlight.add(task)
  }

  return {
    onHistory,
    get url() {
      return url
    },
    setUrl: (next: string | undefined) => {
      url = next
    },
    deliveries: () => deliveries.map((delivery) => ({ ...delivery })),
    clear: () => {
      deliveries = []
    },
    /** Resolves when every delivery under way has finished or given up. */
    settle: async () => {
      while (inFlight.size) await Promise.allSettled([...inFlight])
    },
    stop: () => {
      stopped = true
      for (const [timer, resolve] of waits) {
        clearTimeout(timer)
        resolve()
      }
      waits.clear()
    },
  }
}
