import { Hono } from 'hono'
import { createSpreadsheetInputSchema, validateSpreadsheetInputSchema } from '@shared/contracts/sheets'
import type { AppEnv } from '../../context'
import { requireGoogle } from '../../lib/google-access'
import { requireSession } from '../../lib/session'
import { validate } from '../../lib/validate'
import { createSpreadsheet, validateSpreadsheet } from './sheets.service'

export const sheetRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .post('/', requireGoogle, validate('json', createSpreadsheetInputSchema), async (c) => {
    const spreadsheet = await createSpreadsheet(c.var.db, { userId: c.var.user.id, ...c.req.valid('json'), access: c.var.googleAccess })
    return c.json({ spreadsheet }, 201)
  })
  .post('/validate', requireGoogle, validate('json', validateSpreadsheetInputSchema), async (c) => {
    const spreadsheet = await validateSpreadsheet(c.var.db, { userId: c.var.user.id, ...c.req.valid('json'), access: c.var.googleAccess })
    return c.json({ spreadsheet })
  })
