import { KeyRound, Lock } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { toast } from 'sonner'
import type { AccountView } from '@shared/contracts/account'
import { API_KEY_EXPIRIES, API_PLAN_MESSAGE, createApiKeyInputSchema } from '@shared/contracts/api'
import { paths } from '@shared/paths'
import { Button } from '@web/components/ui/button'
import { Field } from '@web/components/ui/field'
import { FieldError } from '@web/components/ui/form-error'
import { Input } from '@web/components/ui/input'
import { Spinner } from '@web/components/ui/spinner'
import { errorMessage } from '../api/auth-data'
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/api-keys'
import { CopyButton } from './copy-button'
import { formatLongDate } from './format'
import { SettingsSection } from './settings-section'
import { useUpgrade } from '../../billing/use-upgrade'

const EXPIRY_LABELS: Record<(typeof API_KEY_EXPIRIES)[number], string> = { never: 'Never', '30': 'In 30 days', '90': 'In 90 days', '365': 'In a year' }

function formatWhen(value: string) {
  return new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

/** Settings → API keys: Pro only (locked with the upgrade action otherwise); a new key is shown once. */
export function ApiKeysSection({ account }: { account: AccountView }) {
  const isPro = account.plan === 'pro'
  const { upgrade, isPending } = useUpgrade()
  return (
    <SettingsSection id="api-keys" title="API keys" description="Keys for the Mailrow REST API: scripts and other tools use them to reach your parsers and emails.">
      {isPro ? (
        <ApiKeys />
      ) : (
        <div className="flex flex-col items-start gap-3 rounded-lg border bg-muted/40 p-4" data-testid="api-keys-locked">
          <div className="flex items-start gap-2">
            <Lock className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
            <div>
              <p className="font-medium">Upgrade Required</p>
              <p className="text-sm text-muted-foreground">{API_PLAN_MESSAGE}</p>
            </div>
          </div>
          <Button onClick={() => upgrade('pro')} disabled={isPending}>
            Upgrade Now
          </Button>
        </div>
      )}
      <p className="mt-4 text-sm text-muted-foreground">
        See the <a className="underline underline-offset-4" href={paths.apiDocs}>API reference</a> for what the API can do.
      </p>
    </SettingsSection>
  )
}

function ApiKeys() {
  const keys = useApiKeys(true)
  const create = useCreateApiKey()
  const revoke = useRevokeApiKey()
  const [name, setName] = useState('')
  const [expiresIn, setExpiresIn] = useState<(typeof API_KEY_EXPIRIES)[number]>('never')
  const [error, setError] = useState<string | null>(null)
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null)

  async function submit(event: FormEvent) {
    event.preventDefault()
    const input = createApiKeyInputSchema.safeParse({ name, expiresIn })
    if (!input.success) {
      setError(input.error.issues[0]?.message ?? 'Please check the form.')
      return
    }
    setError(null)
    try {
      const answer = await create.mutateAsync(input.data)
      setCreated({ name: answer.apiKey.name, key: answer.key })
      setName('')
    } catch (e) {
      setError(errorMessage(e))
    }
  }

  async function revokeKey(id: string, keyName: string) {
    try {
      await revoke.mutateAsync(id)
      toast.success(`API key "${keyName}" revoked`)
    } catch (e) {
      toast.error('Could not revoke the key', { description: errorMessage(e) })
    }
  }

  return (
    <div className="flex flex-col gap-6">
      {created ? (
        <div role="status" className="flex flex-col gap-2 rounded-lg border border-primary bg-primary/5 p-4">
          <p className="font-medium">Your new key "{created.name}"</p>
          <p className="text-sm text-muted-foreground">Copy it now: it won't be shown again.</p>
          <code data-testid="new-api-key" className="block rounded-md border bg-background px-3 py-2 font-mono text-xs wrap-anywhere">
            {created.key}
          </code>
          <div className="flex gap-2">
            <CopyButton text={created.key} label="Copy key" copiedMessage="API key copied" />
            <Button size="sm" variant="outline" onClick={() => setCreated(null)}>
              Done
            </Button>
          </div>
        </div>
      ) : null}

      <form className="flex flex-wrap items-end gap-3" onSubmit={(e) => void submit(e)} noValidate>
        <Field label="Key name" className="min-w-48 flex-1 gap-1.5">
          {(control) => (
            <Input
              {...control}
              value={name}
              maxLength={100}
              placeholder="e.g. Zapier, nightly export"
              onChange={(e) => setName(e.target.value)}
              // The message sits under the whole row, where it also gives the server's refusals, so it is linked here.
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'api-key-error' : undefined}
            />
          )}
        </Field>
        <Field label="Expires" className="gap-1.5">
          {(control) => (
            <select
              {...control}
              className="h-10 rounded-md border border-input bg-background px-3 text-sm"
              value={expiresIn}
              onChange={(e) => setExpiresIn(e.target.value as (typeof API_KEY_EXPIRIES)[number])}
            >
              {API_KEY_EXPIRIES.map((value) => (
                <option key={value} value={value}>
                  {EXPIRY_LABELS[value]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Button type="submit" disabled={create.isPending}>
          <KeyRound aria-hidden />
          {create.isPending ? 'Creating key...' : 'Create key'}
        </Button>
        <div className="w-full">
          <FieldError id="api-key-error" message={error ?? undefined} />
        </div>
      </form>

      {keys.isPending ? (
        <Spinner label="Loading your API keys" />
      ) : keys.isError ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load your API keys: {errorMessage(keys.error)}
        </p>
      ) : keys.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">No API keys yet.</p>
      ) : (
        <ul className="flex flex-col divide-y rounded-lg border" aria-label="API keys">
          {keys.data.map((key) => (
            <li key={key.id} className="flex flex-wrap items-center justify-between gap-3 p-3">
              <div className="min-w-0">
                <p className="font-medium wrap-anywhere">{key.name}</p>
                <p className="text-sm text-muted-foreground">
                  <code className="font-mono text-xs">{key.start}…</code> · created {formatLongDate(key.createdAt)} ·{' '}
                  {key.expiresAt ? `expires ${formatLongDate(key.expiresAt)}` : 'never expires'} ·{' '}
                  {key.lastUsedAt ? `last used ${formatWhen(key.lastUsedAt)}` : 'never used'}
                </p>
              </div>
              <Button size="sm" variant="outline" aria-label={`Revoke ${key.name}`} disabled={revoke.isPending} onClick={() => void revokeKey(key.id, key.name)}>
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
