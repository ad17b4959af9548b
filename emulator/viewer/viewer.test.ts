import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawMessage, startTestEmulator, type TestEmulator } from '../testing/harness'

let t: TestEmulator

beforeAll(async () => {
  t = await startTestEmulator()
})
afterAll(() => t.close())

describe('viewer pages', () => {
  it('renders a spreadsheet as a table with sheet tabs, escaping every value', async () => {
    const { body } = await t.control('POST', '/spreadsheets', {
      owner: 'demo@mailrow.test',
      title: 'Orders <b>',
      sheets: [
        { title: 'Data', values: [['Order', 'Note'], ['NW-1', '<script>alert(1)</script>']], frozenRowCount: 1 },
        { title: 'Archive & old' },
      ],
    })
    const response = await fetch(`${t.url}/sheets/${body.id}`)
    const html = await response.text()
    expect(response.headers.get('content-security-policy')).toContain("script-src 'none'")
    expect(html).toContain('Orders &lt;b&gt;')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).not.toContain('<script>alert(1)')
    expect(html).toContain('<th>Order</th>')
    expect(html).toContain('Archive &amp; old')
    const archive = await (await fetch(`${t.url}/sheets/${body.id}?gid=${(await t.control('GET', `/spreadsheets/${body.id}`)).body.sheets[1].sheetId}`)).text()
    expect(archive).toContain('This sheet is empty.')
    expect((await fetch(`${t.url}/sheets/unknown`)).status).toBe(404)
    const legacy = await fetch(`${t.url}/spreadsheets/d/${body.id}/edit`, { redirect: 'manual' })
    expect(legacy.headers.get('location')).toBe(`/sheets/${body.id}`)
  })

  it('lists a mailbox and shows a message with its HTML sandboxed', async () => {
    const delivered = await t.deliver(
      'demo@mailrow.test',
      rawMessage({
        from: 'Shop <orders@shop.test>',
        subject: 'Order <42>',
        text: 'Plain text body',
        html: '<p onclick="steal()">Hi</p><script>alert("x")</script><img src="https://tracker.test/p.gif">',
      }),
    )
    const list = await (await fetch(`${t.url}/mail/demo@mailrow.test`)).text()
    expect(list).toContain('Order &lt;42&gt;')
    expect(list).toContain(`/mail/demo%40mailrow.test/${delivered.id}`)
    const page = await fetch(`${t.url}/mail/demo@mailrow.test/${delivered.id}`)
    const html = await page.text()
    expect(html).toContain('<pre>Plain text body')
    expect(html).toMatch(/<iframe sandbox="" [^>]*srcdoc="[^"]*&lt;script&gt;/)
    expect(html).not.toMatch(/allow-scripts/)
    expect(html).not.toContain('<script>alert')
    expect(page.headers.get('content-security-policy')).toContain("img-src data:")
  })
})
