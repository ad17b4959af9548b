import type { HttpBindings } from '@hono/node-server'

/** Who a valid access token speaks for. */
export type Principal = { email: string; scopes: string[]; clientId: string }

/** The Google API method a request maps to, for logs, quota and error details. */
export type ApiMethod = { id: string; service: string; rpc: string }

export type EmulatorEnv = {
  Bindings: Partial<HttpBindings>
  Variables: { principal: Principal; apiMethod: ApiMethod }
}
