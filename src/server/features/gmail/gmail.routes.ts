import { Hono } from 'hono'
import { z } from 'zod'
import { emailFiltersSchema } from '@shared/contracts/gmail'
import type { AppEnv } from '../../context'
import { requireGoogle } from '../../lib/google-access'
import { requireSession } from '../../lib/session'
import { validate } from '../../lib/validate'
import { listMatchingEmails } from './gmail.service'

const matchingEmailsSchema = z.intersection(emailFiltersSchema, z.object({ showImages: z.boolean().optional() }))

export const gmailRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .post('/matching-emails', requireGoogle, validate('json', matchingEmailsSchema), async (c) => {
    const { showImages, ...filters } = c.req.valid('json')
    const emails = await listMatchingEmails(c.var.db, {
      userId: c.var.user.id,
      filters,
      access: c.var.googleAccess,
      allowRemoteImages: showImages,
    })
    return c.json({ emails })
  })
