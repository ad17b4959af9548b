import { hc } from 'hono/client'
import type { AppType } from '../../server/app'

/** Typed RPC client for /api (the one import from server code: a type). */
export const api = hc<AppType>('/api')

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/** Reads a response, turning `{ error: { code, message } }` into a thrown ApiError. */
export async function unwrap<T>(responsePromise: Promise<{ ok: boolean; status: number; json(): Promise<T> }>): Promise<T> {
  const response = await responsePromise
  if (response.ok) return response.json()
  let code = 'INTERNAL'
  let message = `Request failed (${response.status})`
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string } }
    code = body.error?.code ?? code
    message = body.error?.message ?? message
  } catch {
    // not JSON: keep the generic message
  }
  throw new ApiError(response.status, code, message)
}
