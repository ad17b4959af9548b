import { z } from 'zod'

/** The events an endpoint can subscribe to (issue 13). */
export const WEBHOOK_EVENT_TYPES = ['email.parsed', 'parser.needs_attention', 'usage.limit_reached'] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

/** Sent by 'Send test event' whatever the endpoint subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test'

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'email.parsed': 'An email was parsed (success, partial or failed), with its fields',
  'parser.needs_attention': "A parser needs attention (the sender's layout changed, the connection was lost)",
  'usage.limit_reached': "The month's email limit was reached",
}

/** Spec §5's upgrade wording, for webhooks (spec §9: Pro includes webhooks). */
export const WEBHOOKS_PLAN_MESSAGE = 'Webhooks require Pro plan. Please upgrade to use this feature.'

/** Endpoints per account: plenty for real use, a bound on the fan-out of each event. */
export const MAX_WEBHOOK_ENDPOINTS = 10

const webhookUrlSchema = z
  .string()
  .trim()
  .min(1, { error: 'Please enter the URL that should receive the events.' })
  .max(2000, { error: 'The URL is too long.' })
  .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), { error: 'Please enter an http:// or https:// URL.' })
  .refine((v) => !URL.canParse(v) || (new URL(v).username === '' && new URL(v).password === ''), {
    error: 'Put credentials in the receiving service, not in the URL.',
  })

const eventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1, { error: 'Please choose at least one event.' })
  .transform((events) => [...new Set(events)])

const parserIdsSchema = z
  .array(z.uuid({ error: 'Not a parser ID' }))
  .max(100)
  .transform((ids) => [...new Set(ids)])

/** Add an endpoint: a URL, its events and optionally the parsers whose events it wants (none = all). */
export const createWebhookInputSchema = z.object({
  url: webhookUrlSchema,
  description: z.string().trim().max(200).default(''),
  events: eventsSchema,
  parserIds: parserIdsSchema.default([]),
})
export type CreateWebhookInput = z.input<typeof createWebhookInputSchema>

/** Change an endpoint; turning it back on after it was disabled for failing clears the reason. */
export const updateWebhookInputSchema = z
  .object({
    url: webhookUrlSchema,
    description: z.string().trim().max(200),
    events: eventsSchema,
    parserIds: parserIdsSchema,
    enabled: z.boolean(),
  })
  .partial()
export type UpdateWebhookInput = z.input<typeof updateWebhookInputSchema>

/** An endpoint as the app and the API show it (the secret is never part of it). */
export const webhookEndpointViewSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  parserIds: z.array(z.string()),
  enabled: z.boolean(),
  /** Set when Mailrow turned the endpoint off because its deliveries kept failing. */
  disabledReason: z.string().nullable(),
  disabledAt: z.string().nullable(),
  createdAt: z.string(),
})
export type WebhookEndpointView = z.infer<typeof webhookEndpointViewSchema>

export const webhookAttemptViewSchema = z.object({
  at: z.string(),
  statusCode: z.number().nullable(),
  durationMs: z.number(),
  error: z.string().nullable(),
  responseExcerpt: z.string(),
})
export type WebhookAttemptView = z.infer<typeof webhookAttemptViewSchema>

export const webhookDeliveryViewSchema = z.object({
  id: z.string(),
  messageId: z.string(),
  eventType: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  /** Latest attempt first. */
  attempts: z.array(webhookAttemptViewSchema),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  payload: z.record(z.string(), z.unknown()),
})
export type WebhookDeliveryView = z.infer<typeof webhookDeliveryViewSchema>
