import { expect, it } from 'vitest'
import { z } from 'zod'
import './zod-config'

it('parses objects without evaluating code, which the CSP forbids', () => {
  const original = globalThis.Function
  let compiled = 0
  globalThis.Function = new Proxy(original, {
    construct(target, args) {
      compiled += 1
      return Reflect.construct(target, args)
    },
    apply(target, self, args) {
      compiled += 1
      return Reflect.apply(target, self, args)
    },
  })
  try {
    const schema = z.object({ email: z.email(), nested: z.object({ n: z.number() }) })
    expect(schema.parse({ email: 'a@b.co', nested: { n: 1 } })).toEqual({ email: 'a@b.co', nested: { n: 1 } })
    expect(schema.safeParse({ email: 'nope', nested: { n: 1 } }).success).toBe(false)
  } finally {
    globalThis.Function = original
  }
  expect(compiled).toBe(0)
})
