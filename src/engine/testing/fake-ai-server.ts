import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One canned answer: the assistant's message text, or an HTTP error. */
export type FakeReply = { content: string; promptTokens?: number; completionTokens?: number } | { status: number; body: string }

export type FakeAiServer = {
  baseUrl: string
  /** Bodies of every /chat/completions request, in order. */
  requests: Array<Record<string, unknown>>
  /** Queues answers; when the queue is empty the server answers 500. */
  reply(...replies: FakeReply[]): void
  close(): Promise<void>
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** A local OpenAI-compatible chat endpoint on 127.0.0.1 for tests: no network, canned JSON. */
export async function startFakeAiServer(): Promise<FakeAiServer> {
  const queue: FakeReply[] = []
  const requests: Array<Record<string, unknown>> = []
  const server = createServer(async (req, res) => {
    const body = await readBody(req)
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}')
      return
    }
    requests.push(JSON.parse(body) as Record<string, unknown>)
    const next = queue.shift() ?? { status: 500, body: '{"error":{"message":"no canned reply left"}}' }
    if ('status' in next) {
      res.writeHead(next.status, { 'content-type': 'application/json' }).end(next.body)
      return
    }
    const promptTokens = next.promptTokens ?? 1200
    const completionTokens = next.completionTokens ?? 60
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: 1_700_000_000,
        model: (requests[requests.length - 1]!.model as string) ?? 'fake',
        choices: [{ index: 0, message: { role: 'assistant', content: next.content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      }),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (...replies) => queue.push(...replies),
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  }
}
