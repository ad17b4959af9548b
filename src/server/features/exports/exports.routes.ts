import { Hono } from 'hono'
import { z } from 'zod'
import { exportQuerySchema } from '@shared/contracts/exports'
import type { AppEnv } from '../../context'
import { validate } from '../../lib/validate'
import { exportParserData } from './exports.service'

const idParam = z.object({ id: z.uuid({ error: 'Parser not found' }) })

/** RFC 6266: an ASCII fallback name and the real one in UTF-8. */
function contentDisposition(filename: string) {
  const ascii = filename.replace(/[^\x20-\x7E]/g, '_').replace(/["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`
}

/** Mounted inside the parser routes (/api/parsers/:id/export), behind their session check. */
export const exportRoutes = new Hono<AppEnv>().get('/:id/export', validate('param', idParam), validate('query', exportQuerySchema), async (c) => {
  const file = await exportParserData(c.var.db, { userId: c.var.user.id, parserId: c.req.valid('param').id, query: c.req.valid('query') })
  return c.body(file.body, 200, { 'Content-Type': file.contentType, 'Content-Disposition': contentDisposition(file.filename), 'X-Content-Type-Options': 'nosniff' })
})
