import type { Context } from 'hono'

/** Links the emulator hands out (spreadsheetUrl, discovery) use the origin the caller reached it by. */
export function baseUrl(c: Context, state: { config: { publicUrl?: string | undefined } }): string {
  if (state.config.publicUrl) return state.config.publicUrl.replace(/\/+$/, '')
  return new URL(c.req.url).origin
}
