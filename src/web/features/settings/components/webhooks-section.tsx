import { Lock, Send, Trash2, Webhook as WebhookIcon } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { toast } from 'sonner'
import type { AccountView } from '@shared/contracts/account'
import {
  createWebhookInputSchema,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOKS_PLAN_MESSAGE,
  type WebhookEndpointView,
  type WebhookEventType,
} from '@shared/contracts/webhooks'
import { PLAN_INFO } from '@shared/plans'
import { Badge } from '@web/components/ui/badge'
import { Button } from '@web/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog'
import { Field } from '@web/components/ui/field'
import { Input } from '@web/components/ui/input'
import { Spinner } from '@web/components/ui/spinner'
import { Switch } from '@web/components/ui/switch'
import { useParsersList } from '../../parsers/api/parser-pages'
import { UPGRADE_PATH } from '../../parsers/upgrade'
import { errorMessage } from '../api/auth-data'
import {
  useCreateWebhook,
  useDeleteWebhook,
  useRedeliver,
  useRevealWebhookSecret,
  useSendTestEvent,
  useUpdateWebhook,
  useWebhookDeliveries,
  useWebhooks,
} from '../api/webhooks'
import { CopyButton } from './copy-button'
import { SettingsSection } from './settings-section'

const DESCRIPTION = 'Signed events (Standard Webhooks) sent to your own URLs when an email is parsed or something needs you.'

/** Settings → Webhooks: Pro only; other plans see the section locked with the upgrade action. */
export function WebhooksSection({ account }: { account: AccountView }) {
  const allowed = PLAN_INFO[account.plan].webhooks
  return (
    <SettingsSection id="webhooks" title="Webhooks" description={DESCRIPTION}>
      {allowed ? (
        <WebhookList />
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-4 rounded-lg border border-dashed p-4">
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Lock className="size-4 shrink-0" aria-hidden />
            {WEBHOOKS_PLAN_MESSAGE}
          </p>
          <Button asChild>
            <Link to={UPGRADE_PATH}>Upgrade Now</Link>
          </Button>
        </div>
      )}
    </SettingsSection>
  )
}

function WebhookList() {
  const webhooks = useWebhooks(true)
  const [adding, setAdding] = useState(false)
  if (webhooks.isPending) return <Spinner label="Loading webhooks" />
  if (webhooks.isError) {
    return (
      <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-destructive">
        {errorMessage(webhooks.error, 'Could not load your webhooks')}
        <Button variant="outline" size="sm" onClick={() => void webhooks.refetch()}>
          Try again
        </Button>
      </div>
    )
  }
  return (
    <div className="flex flex-col gap-4">
      {webhooks.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">No webhooks yet. Add one to have parsed emails pushed to your own service.</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Webhooks">
          {webhooks.data.map((webhook) => (
            <li key={webhook.id}>
              <WebhookItem webhook={webhook} />
            </li>
          ))}
        </ul>
      )}
      <div>
        <Button onClick={() => setAdding(true)}>
          <WebhookIcon aria-hidden />
          Add webhook
        </Button>
      </div>
      <AddWebhookDialog open={adding} onOpenChange={setAdding} />
    </div>
  )
}

function WebhookItem({ webhook }: { webhook: WebhookEndpointView }) {
  const update = useUpdateWebhook()
  const remove = useDeleteWebhook()
  const test = useSendTestEvent()
  const reveal = useRevealWebhookSecret()
  const [showLog, setShowLog] = useState(false)
  const [secret, setSecret] = useState<string | null>(null)

  async function sendTest() {
    try {
      const delivery = await test.mutateAsync(webhook.id)
      setShowLog(true)
      const attempt = delivery.attempts[0]
      if (delivery.status === 'succeeded') toast.success('Test event delivered', { description: `Your endpoint answered HTTP ${attempt?.statusCode}.` })
      else toast.error('Test event not delivered', { description: attempt?.error ?? 'It will be retried.' })
    } catch (error) {
      toast.error('Could not send the test event', { description: errorMessage(error) })
    }
  }

  async function setEnabled(enabled: boolean) {
    try {
      await update.mutateAsync({ id: webhook.id, input: { enabled } })
    } catch (error) {
      toast.error('Could not change the webhook', { description: errorMessage(error) })
    }
  }

  async function deleteIt() {
    try {
      await remove.mutateAsync(webhook.id)
      toast.success('Webhook deleted')
    } catch (error) {
      toast.error('Could not delete the webhook', { description: errorMessage(error) })
    }
  }

  return (
    <article className="flex flex-col gap-3 rounded-lg border p-4" aria-label={`Webhook ${webhook.url}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all">{webhook.url}</p>
          {webhook.description ? <p className="text-sm text-muted-foreground">{webhook.description}</p> : null}
          <div className="mt-2 flex flex-wrap gap-1">
            {webhook.events.map((event) => (
              <Badge key={event} variant="outline">
                {event}
              </Badge>
            ))}
            {webhook.parserIds.length > 0 ? <Badge variant="secondary">{webhook.parserIds.length} parser(s)</Badge> : null}
          </div>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <Switch checked={webhook.enabled} onCheckedChange={(on) => void setEnabled(on)} aria-label="Webhook on" disabled={update.isPending} />
          {webhook.enabled ? 'On' : 'Off'}
        </label>
      </div>
      {webhook.disabledReason ? (
        <p role="alert" className="rounded-md bg-destructive/10 p-2 text-sm text-destructive">
          {webhook.disabledReason}
        </p>
      ) : null}
      {secret ? (
        <div className="flex flex-wrap items-center gap-2">
          <code className="rounded bg-muted px-2 py-1 font-mono text-xs break-all">{secret}</code>
          <CopyButton text={secret} label="Copy secret" copiedMessage="Signing secret copied" />
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => void sendTest()} disabled={test.isPending}>
          <Send aria-hidden />
          {test.isPending ? 'Sending…' : 'Send test event'}
        </Button>
        <Button variant="outline" size="sm" onClick={() => setShowLog((v) => !v)} aria-expanded={showLog}>
          {showLog ? 'Hide delivery log' : 'Delivery log'}
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={reveal.isPending}
          onClick={() =>
            void reveal.mutateAsync(webhook.id).then(setSecret, (error: unknown) => toast.error('Could not reveal the secret', { description: errorMessage(error) }))
          }
        >
          Reveal signing secret
        </Button>
        <Button variant="outline" size="sm" onClick={() => void deleteIt()} disabled={remove.isPending}>
          <Trash2 aria-hidden />
          Delete
        </Button>
      </div>
      {showLog ? <DeliveryLog webhookId={webhook.id} /> : null}
    </article>
  )
}

function DeliveryLog({ webhookId }: { webhookId: string }) {
  const deliveries = useWebhookDeliveries(webhookId)
  const redeliver = useRedeliver()
  if (deliveries.isPending) return <Spinner label="Loading deliveries" />
  if (deliveries.isError) return <p role="alert" className="text-sm text-destructive">{errorMessage(deliveries.error, 'Could not load the deliveries')}</p>
  if (deliveries.data.deliveries.length === 0) return <p className="text-sm text-muted-foreground">Nothing sent yet.</p>
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" aria-label="Delivery log">
        <thead className="text-xs text-muted-foreground">
          <tr>
            <th className="py-1 pr-3 font-medium">Event</th>
            <th className="py-1 pr-3 font-medium">Status</th>
            <th className="py-1 pr-3 font-medium">Response</th>
            <th className="py-1 pr-3 font-medium">Time</th>
            <th className="py-1 pr-3 font-medium">Answer</th>
            <th className="py-1 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {deliveries.data.deliveries.map((delivery) => {
            const last = delivery.attempts[0]
            return (
              <tr key={delivery.id} className="border-t align-top">
                <td className="py-2 pr-3 font-mono text-xs">{delivery.eventType}</td>
                <td className="py-2 pr-3">
                  <Badge variant={delivery.status === 'succeeded' ? 'default' : delivery.status === 'failed' ? 'destructive' : 'secondary'}>
                    {delivery.status === 'succeeded' ? 'Delivered' : delivery.status === 'failed' ? 'Failed' : 'Retrying'}
                  </Badge>
                  {delivery.attempts.length > 1 ? <span className="ml-1 text-xs text-muted-foreground">{delivery.attempts.length} attempts</span> : null}
                </td>
                <td className="py-2 pr-3">{last?.statusCode ? `HTTP ${last.statusCode}` : '—'}</td>
                <td className="py-2 pr-3 whitespace-nowrap">
                  {last ? `${new Date(last.at).toLocaleString()} (${last.durationMs} ms)` : new Date(delivery.createdAt).toLocaleString()}
                  {delivery.nextAttemptAt && delivery.attempts.length > 0 ? (
                    <span className="block text-xs text-muted-foreground">Next try {new Date(delivery.nextAttemptAt).toLocaleString()}</span>
                  ) : null}
                </td>
                <td className="max-w-56 py-2 pr-3">
                  {last?.error ? <span className="block text-xs text-destructive">{last.error}</span> : null}
                  <span className="line-clamp-2 font-mono text-xs break-all text-muted-foreground">{last?.responseExcerpt}</span>
                </td>
                <td className="py-2">
                  <Button
                    variant="ghost"
                    size="sm"
                    disabled={redeliver.isPending}
                    onClick={() =>
                      void redeliver
                        .mutateAsync({ id: webhookId, deliveryId: delivery.id })
                        .catch((error: unknown) => toast.error('Could not redeliver', { description: errorMessage(error) }))
                    }
                  >
                    Redeliver
                  </Button>
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

function AddWebhookDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateWebhook()
  const parsers = useParsersList()
  const [url, setUrl] = useState('')
  const [description, setDescription] = useState('')
  const [events, setEvents] = useState<WebhookEventType[]>(['email.parsed'])
  const [parserIds, setParserIds] = useState<string[]>([])
  const [error, setError] = useState<string | null>(null)
  const [secret, setSecret] = useState<string | null>(null)

  function close(next: boolean) {
    if (!next) {
      setUrl('')
      setDescription('')
      setEvents(['email.parsed'])
      setParserIds([])
      setError(null)
      setSecret(null)
    }
    onOpenChange(next)
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    const input = { url, description, events, parserIds }
    const parsed = createWebhookInputSchema.safeParse(input)
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Please check the form.')
    setError(null)
    try {
      const created = await create.mutateAsync(input)
      setSecret(created.secret)
    } catch (e) {
      setError(errorMessage(e))
    }
  }

  const toggle = <T,>(list: T[], value: T, on: boolean) => (on ? [...list, value] : list.filter((v) => v !== value))

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{secret ? 'Webhook added' : 'Add webhook'}</DialogTitle>
          <DialogDescription>
            {secret
              ? 'Verify each request with this signing secret (see "Verifying webhooks" in the README). You can reveal it again later.'
              : 'Mailrow sends a signed POST request to this URL for each event you choose.'}
          </DialogDescription>
        </DialogHeader>
        {secret ? (
          <div className="flex flex-col gap-3">
            <code className="rounded bg-muted px-2 py-1 font-mono text-xs break-all" data-testid="webhook-secret">
              {secret}
            </code>
            <CopyButton text={secret} label="Copy secret" copiedMessage="Signing secret copied" />
            <DialogFooter>
              <Button onClick={() => close(false)}>Done</Button>
            </DialogFooter>
          </div>
        ) : (
          <form className="flex flex-col gap-4" onSubmit={(e) => void submit(e)} noValidate>
            <Field label="Endpoint URL">
              {(control) => <Input {...control} type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/mailrow-webhook" />}
            </Field>
            <Field label="Description (optional)">
              {(control) => <Input {...control} value={description} onChange={(e) => setDescription(e.target.value)} maxLength={200} />}
            </Field>
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-medium">Events</legend>
              {WEBHOOK_EVENT_TYPES.map((type) => (
                <label key={type} className="flex items-start gap-2 text-sm">
                  <input type="checkbox" className="mt-1" checked={events.includes(type)} onChange={(e) => setEvents(toggle(events, type, e.target.checked))} />
                  <span>
                    <span className="font-mono text-xs">{type}</span>
                    <span className="block text-muted-foreground">{WEBHOOK_EVENT_LABELS[type]}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            {parsers.data && parsers.data.length > 0 ? (
              <fieldset className="flex flex-col gap-2">
                <legend className="mb-1 text-sm font-medium">Parsers (none chosen: all of them)</legend>
                {parsers.data.map((parser) => (
                  <label key={parser.id} className="flex items-center gap-2 text-sm">
                    <input type="checkbox" checked={parserIds.includes(parser.id)} onChange={(e) => setParserIds(toggle(parserIds, parser.id, e.target.checked))} />
                    {parser.name}
                  </label>
                ))}
              </fieldset>
            ) : null}
            {error ? (
              <p role="alert" className="text-sm text-destructive">
                {error}
              </p>
            ) : null}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? 'Adding…' : 'Add webhook'}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  )
}
