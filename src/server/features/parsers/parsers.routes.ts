import { Hono } from 'hono'
import { z } from 'zod'
import {
  createParserInputSchema,
  parserEmailsQuerySchema,
  previewInputSchema,
  reprocessInputSchema,
  resumeParserInputSchema,
  testParserInputSchema,
  trainFromEmailInputSchema,
  updateParserInputSchema,
} from '@shared/contracts/parsers'
import { editParserInputSchema } from '@shared/contracts/parser-edit'
import type { AppEnv } from '../../context'
import { requireGoogle } from '../../lib/google-access'
import { requireSession } from '../../lib/session'
import { AppError } from '../../lib/errors'
import { validate } from '../../lib/validate'
import { exportRoutes } from '../exports/exports.routes'
import { listMatchingEmails } from '../gmail/gmail.service'
import { editParser } from './parser-edit.service'
import { getParserEmails, getTrainingEmail, previewTrainingFromEmail, reprocessParserEmails, trainParserFromEmail } from './parser-emails.service'
import { createParser, deleteParser, getParsedEmail, getParser, listParsers, previewParser, resumeParser, setParserActive, testParser } from './parsers.service'

const idParam = z.object({ id: z.uuid({ error: 'Parser not found' }) })
const emailParam = z.object({ id: z.uuid({ error: 'Parser not found' }), emailId: z.uuid({ error: 'Parsed email not found' }) })

export const parserRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get('/', async (c) => c.json({ parsers: await listParsers(c.var.db, { userId: c.var.user.id }) }))
  .post('/', requireGoogle, validate('json', createParserInputSchema), async (c) => {
    const result = await createParser(c.var.db, { userId: c.var.user.id, input: c.req.valid('json'), access: c.var.googleAccess })
    return c.json(result, 201)
  })
  .post('/preview', requireGoogle, validate('json', previewInputSchema), async (c) => {
    const preview = await previewParser(c.var.db, { userId: c.var.user.id, ...c.req.valid('json'), access: c.var.googleAccess })
    return c.json(preview)
  })
  .get('/:id', validate('param', idParam), async (c) => {
    const parser = (await listParsers(c.var.db, { userId: c.var.user.id })).find((p) => p.id === c.req.valid('param').id)
    if (!parser) throw new AppError('NOT_FOUND', 'Parser not found')
    return c.json({ parser })
  })
  .get('/:id/emails', validate('param', idParam), validate('query', parserEmailsQuerySchema), async (c) => {
    return c.json(await getParserEmails(c.var.db, { userId: c.var.user.id, parserId: c.req.valid('param').id, query: c.req.valid('query') }))
  })
  .post('/:id/reprocess', requireGoogle, validate('param', idParam), validate('json', reprocessInputSchema), async (c) => {
    const { env, ai, requestSync } = c.var.deps
    const result = await reprocessParserEmails(c.var.db, {
      userId: c.var.user.id,
      parserId: c.req.valid('param').id,
      input: c.req.valid('json'),
      pipeline: { access: c.var.googleAccess, ai, leaseMs: env.WORKER_LEASE_SECONDS * 1000, write: { ambiguousDeadlineMs: env.SHEETS_WRITE_DEADLINE_SECONDS * 1000 } },
      requestSync,
    })
    return c.json(result)
  })
  .get('/:id/emails/:emailId/training', requireGoogle, validate('param', emailParam), async (c) => {
    const { id, emailId } = c.req.valid('param')
    return c.json(await getTrainingEmail(c.var.db, { userId: c.var.user.id, parserId: id, emailId, access: c.var.googleAccess }))
  })
  .post('/:id/train/preview', requireGoogle, validate('param', idParam), validate('json', trainFromEmailInputSchema), async (c) => {
    const preview = await previewTrainingFromEmail(c.var.db, { userId: c.var.user.id, parserId: c.req.valid('param').id, ...c.req.valid('json'), access: c.var.googleAccess })
    return c.json(preview)
  })
  .post('/:id/train', requireGoogle, validate('param', idParam), validate('json', trainFromEmailInputSchema), async (c) => {
    const result = await trainParserFromEmail(c.var.db, { userId: c.var.user.id, parserId: c.req.valid('param').id, ...c.req.valid('json'), access: c.var.googleAccess })
    return c.json(result)
  })
  .put('/:id', requireGoogle, validate('param', idParam), validate('json', editParserInputSchema), async (c) => {
    const parser = await editParser(c.var.db, { userId: c.var.user.id, parserId: c.req.valid('param').id, input: c.req.valid('json'), access: c.var.googleAccess })
    return c.json({ parser })
  })
  .patch('/:id', validate('param', idParam), validate('json', updateParserInputSchema), async (c) => {
    const parser = await setParserActive(c.var.db, { userId: c.var.user.id, parserId: c.req.valid('param').id, active: c.req.valid('json').active })
    return c.json({ parser })
  })
  // Resume asks what to do with the mail that arrived while paused (decision 024).
  .post('/:id/resume', requireGoogle, validate('param', idParam), validate('json', resumeParserInputSchema), async (c) => {
    const result = await resumeParser(c.var.db, {
      userId: c.var.user.id,
      parserId: c.req.valid('param').id,
      pausedMail: c.req.valid('json').pausedMail,
      access: c.var.googleAccess,
      requestSync: c.var.deps.requestSync,
    })
    return c.json(result)
  })
  .delete('/:id', validate('param', idParam), async (c) => {
    await deleteParser(c.var.db, { userId: c.var.user.id, parserId: c.req.valid('param').id })
    return c.body(null, 204)
  })
  .post('/:id/test', requireGoogle, validate('param', idParam), validate('json', testParserInputSchema), async (c) => {
    const result = await testParser(c.var.db, {
      userId: c.var.user.id,
      parserId: c.req.valid('param').id,
      emailId: c.req.valid('json').emailId,
      access: c.var.googleAccess,
      ai: c.var.deps.ai,
    })
    return c.json({ result })
  })
  // The test dialog's picker: recent emails that match this parser's filters.
  .get('/:id/recent-emails', requireGoogle, validate('param', idParam), async (c) => {
    const parser = await getParser(c.var.db, { userId: c.var.user.id, parserId: c.req.valid('param').id })
    const emails = await listMatchingEmails(c.var.db, {
      userId: c.var.user.id,
      filters: { filterFrom: parser.filterFrom, filterSubject: parser.filterSubject, filterLabel: parser.filterLabel },
      advanced: parser.advancedFilters,
      access: c.var.googleAccess,
    })
    return c.json({ emails: emails.map(({ id, subject, from, date }) => ({ id, subject, from, date })) })
  })
  .route('/', exportRoutes)

export const parsedEmailRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get('/:id', validate('param', z.object({ id: z.uuid({ error: 'Parsed email not found' }) })), async (c) => {
    return c.json({ email: await getParsedEmail(c.var.db, { userId: c.var.user.id, id: c.req.valid('param').id }) })
  })
