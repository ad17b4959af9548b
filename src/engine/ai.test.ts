import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AiProviderConfig } from './ai'
import { runParser, trainParser, type TrainedTemplate } from './extract'
import { eml } from './testing/eml'
import { startFakeAiServer, type FakeAiServer } from './testing/fake-ai-server'
import { makePdf } from './testing/pdf-fixture'

let server: FakeAiServer
let ai: AiProviderConfig
let template: TrainedTemplate

const FIELDS = [
  { name: 'Invoice', value: 'INV-001' },
  { name: 'Amount Due', value: '$25.00', type: 'money' as const },
]

beforeAll(async () => {
  server = await startFakeAiServer()
  ai = { baseUrl: server.baseUrl, apiKey: 'test-key', models: { smart: 'gpt-4o-mini', full: 'gpt-4o' }, timeoutMs: 10_000, maxRetries: 0 }
  const trained = await trainParser(eml({ text: 'Invoice: INV-001\nAmount due: $25.00\nThanks!' }), FIELDS)
  if (!trained.ok) throw new Error(trained.reason)
  template = trained.template
})
afterAll(() => server.close())
beforeEach(() => {
  server.requests.length = 0
})

const answer = (values: Record<string, string | null>, tokens: { promptTokens?: number; completionTokens?: number } = {}) => ({ content: JSON.stringify(values), ...tokens })

describe('smart_ai and full_ai through an OpenAI-compatible endpoint', () => {
  it('does not call the model when the template finds every field', async () => {
    const result = await runParser(template, eml({ text: 'Invoice: INV-778\nAmount due: $1,250.00\nThanks!' }), { parserType: 'smart_ai', ai })
    expect(result).toMatchObject({ status: 'success', method: 'template', usage: null })
    expect(server.requests).toHaveLength(0)
  })

  it('lets the model fill what the template missed, says so, and records tokens and cost', async () => {
    server.reply(answer({ Invoice: 'INV-779', 'Amount Due': '€ 310,00' }, { promptTokens: 1200, completionTokens: 60 }))
    const result = await runParser(template, eml({ text: 'Invoice: INV-779\nBalance (EUR) € 310,00 payable now.' }), { parserType: 'smart_ai', ai })
    expect(result).toMatchObject({
      status: 'success',
      method: 'template+smart_ai',
      fields: { Invoice: 'INV-779', 'Amount Due': '€ 310,00' },
      usage: { model: 'gpt-4o-mini', inputTokens: 1200, outputTokens: 60, calls: 1, costUsd: 0.000216 },
    })
    expect(result.details.Invoice!.rule).toBe('label:"invoice"')
    expect(result.details['Amount Due']).toMatchObject({ rule: 'ai:smart', cell: 310, confidence: 0.85 })

    const request = server.requests[0]!
    expect(request.model).toBe('gpt-4o-mini')
    expect(request.response_format).toMatchObject({ type: 'json_schema', json_schema: { schema: { required: ['Amount Due'] } } })
    const prompt = JSON.stringify(request.messages)
    // Template first: the model is asked only for the field the template could not back.
    expect(prompt).toContain('Values in the example: {\\"Amount Due\\":\\"$25.00\\"}')
    expect(prompt).toContain('Balance (EUR) € 310,00 payable now.')
  })

  it('offers to re-learn the template from an email whose layout drifted, when the model found the lost field in it', async () => {
    server.reply(answer({ 'Amount Due': '€ 310,00' }))
    const drifted = eml({ text: 'Invoice: INV-779\nBalance (EUR) € 310,00 payable now.' })
    const result = await runParser(template, drifted, { parserType: 'smart_ai', ai })
    expect(result.repair).toEqual({
      fields: [
        { name: 'Invoice', value: 'INV-779' },
        { name: 'Amount Due', value: '€ 310,00', type: 'money' },
      ],
    })
    const relearned = await trainParser(drifted, result.repair!.fields)
    if (!relearned.ok) throw new Error(relearned.reason)
    const next = await runParser(relearned.template, eml({ text: 'Invoice: INV-780\nBalance (EUR) € 1.020,50 payable now.' }), { parserType: 'smart_ai', ai })
    expect(next).toMatchObject({ status: 'success', method: 'template', fields: { Invoice: 'INV-780', 'Amount Due': '€ 1.020,50' } })
    // A value the model did not find word for word in the email is no ground to re-learn.
    server.reply(answer({ 'Amount Due': '$310.00' }))
    const reworded = await runParser(template, drifted, { parserType: 'smart_ai', ai })
    expect(reworded.repair).toBeNull()
  })

  it('uses the model alone when the template finds nothing, and trusts less what the email does not contain', async () => {
    server.reply(answer({ Invoice: 'A-9', 'Amount Due': '$99.00' }))
    const result = await runParser(template, eml({ html: '<p>Your bill A-9 is ready. Please pay ninety-nine dollars.</p>' }), { parserType: 'smart_ai', ai })
    expect(result).toMatchObject({ status: 'success', method: 'smart_ai', fields: { Invoice: 'A-9', 'Amount Due': '$99.00' } })
    expect(result.details.Invoice!.confidence).toBe(0.85)
    expect(result.details['Amount Due']!.confidence).toBe(0.5)
  })

  it('retries once on invalid output, counting both calls', async () => {
    server.reply({ content: 'Sure! Here are the values: Invoice is A-10' }, answer({ Invoice: 'A-10', 'Amount Due': null }))
    const result = await runParser(template, eml({ text: 'Bill A-10, nothing to pay.' }), { parserType: 'smart_ai', ai })
    expect(result).toMatchObject({ status: 'partial', method: 'smart_ai', fields: { Invoice: 'A-10', 'Amount Due': null } })
    expect(result.usage).toMatchObject({ calls: 2, inputTokens: 2400, outputTokens: 120 })
    expect(server.requests).toHaveLength(2)
  })

  it('fails with the reason when the output stays invalid', async () => {
    server.reply({ content: '{"Invoice": 42}' }, { content: 'not json' })
    const result = await runParser(template, eml({ text: 'Something else entirely.' }), { parserType: 'smart_ai', ai })
    expect(result.status).toBe('failed')
    expect(result.error).toMatch(/^AI extraction failed after a retry: /)
    expect(result.usage).toMatchObject({ calls: 2 })
  })

  it('reports provider errors, keeping what the template found', async () => {
    server.reply({ status: 500, body: '{"error":{"message":"upstream overloaded"}}' })
    const result = await runParser(template, eml({ text: 'Invoice: INV-5\nNothing else.' }), { parserType: 'smart_ai', ai })
    expect(result).toMatchObject({ status: 'partial', method: 'template+smart_ai', fields: { Invoice: 'INV-5', 'Amount Due': null } })
    expect(result.error).toMatch(/^AI provider error: /)
  })

  it('full_ai reads PDF attachments with its own model', async () => {
    server.reply(answer({ Invoice: 'INV-PDF-7', 'Amount Due': '$1,234.56' }, { promptTokens: 3000, completionTokens: 40 }))
    const pdf = makePdf([['Invoice INV-PDF-7', 'Amount due: $1,234.56']])
    const raw = eml({ text: 'Your invoice is attached.', attachments: [{ filename: 'invoice.pdf', mimeType: 'application/pdf', content: pdf }] })
    const result = await runParser(template, raw, { parserType: 'full_ai', ai, parseAttachments: true })
    expect(result).toMatchObject({ status: 'success', method: 'full_ai', usage: { model: 'gpt-4o', calls: 1, costUsd: 0.0079 } })
    expect(result.details.Invoice!.confidence).toBe(0.85)
    const request = server.requests[0]!
    expect(request.model).toBe('gpt-4o')
    expect(JSON.stringify(request.messages)).toContain('<attachment name=\\"invoice.pdf\\">\\nInvoice INV-PDF-7\\nAmount due: $1,234.56')
  })
})
