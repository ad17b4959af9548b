import type { Context } from 'hono'
import { applyFieldMask, parseFieldMask } from './field-mask'
import { GoogleApiError, googleErrorBody, type GoogleErrorInit } from './google-error'

/** Google answers pretty-printed JSON unless prettyPrint=false, narrowed by `fields` when given. */
export function sendJson(c: Context, body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const fields = c.req.query('fields')
  const shaped = fields ? applyFieldMask(body, parseFieldMask(fields)) : body
  const compact = c.req.query('prettyPrint') === 'false'
  const text = JSON.stringify(shaped, null, compact ? undefined : 2)
  return new Response(`${text}\n`, {
    status,
    headers: { 'Content-Type': 'application/json; charset=UTF-8', ...headers },
  })
}

export function sendGoogleError(c: Context, init: GoogleErrorInit): Response {
  const text = JSON.stringify(googleErrorBody(init), null, 2)
  return new Response(`${text}\n`, {
    status: init.code,
    headers: { 'Content-Type': 'application/json; charset=UTF-8', ...init.headers },
  })
}

/** Query parameters that may repeat (`labelIds=A&labelIds=B`), as the official clients send arrays. */
export function queryList(c: Context, name: string): string[] {
  return (c.req.queries(name) ?? []).flatMap((value) => value.split(',')).map((value) => value.trim()).filter(Boolean)
}

export async function readJsonBody(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text()
  if (!text.trim()) return {}
  try {
    const parsed: unknown = JSON.parse(text)
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>
  } catch {
    // fall through to Google's answer for a body that is not JSON
  }
  throw new GoogleApiError({
    code: 400,
    reason: 'parseError',
    message: `Invalid JSON payload received. Unexpected token.\n${text.slice(0, 40)}\n^`,
    status: 'INVALID_ARGUMENT',
  })
}
