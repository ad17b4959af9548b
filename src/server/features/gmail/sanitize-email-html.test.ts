import { describe, expect, it } from 'vitest'
import { sanitizeEmailHtml } from './sanitize-email-html'

describe('sanitizeEmailHtml', () => {
  it('removes script, frames, objects, embeds and forms', () => {
    const out = sanitizeEmailHtml(
      '<p>Hi</p><script>alert(1)</script><iframe src="https://evil.test"></iframe><object data="x"></object><embed src="x"><form action="https://evil.test"><input name="p"></form>',
    )
    expect(out).toBe('<p>Hi</p>')
  })

  it('strips event handlers and javascript: links', () => {
    const out = sanitizeEmailHtml('<a href="javascript:alert(1)" onclick="steal()">x</a><img src="cid:logo" onerror="steal()"><div onmouseover="x()">y</div>')
    expect(out).not.toMatch(/javascript:|onclick|onerror|onmouseover/i)
    expect(out).toContain('<img src="cid:logo">')
  })

  it('defuses classic filter-evasion payloads', () => {
    const payloads = [
      '<svg><script>alert(1)</script></svg>',
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
      '<a href="jav&#x09;ascript:alert(1)">x</a>',
      '<img src=x onerror=alert(1)//',
      '<base href="https://evil.test/">',
      '<meta http-equiv="refresh" content="0;url=https://evil.test">',
    ]
    for (const payload of payloads) {
      const out = sanitizeEmailHtml(payload)
      expect(out).not.toMatch(/<script|onerror|javascript:|<base|<meta|<svg/i)
    }
  })

  it('blocks remote images unless asked, keeping the address for a Show images choice', () => {
    const html = '<img src="https://tracker.test/pixel.gif" alt="p"><div style="background:url(https://tracker.test/bg.png)">x</div>'
    const blocked = sanitizeEmailHtml(html)
    expect(blocked).not.toMatch(/\ssrc="https:/)
    expect(blocked).toContain('data-remote-src="https://tracker.test/pixel.gif"')
    expect(blocked).not.toContain('url(https://tracker.test/bg.png)')
    const shown = sanitizeEmailHtml(html, { allowRemoteImages: true })
    expect(shown).toContain('src="https://tracker.test/pixel.gif"')
  })

  // Each of these loaded a tracker while 'remote images are hidden' (issue 11, finding 7).
  it.each([
    ['an img src without slashes', '<img src="https:tracker.test/x">'],
    ['a video poster', '<video poster="https://tracker.test/p.png"></video>'],
    ['an unclosed url(', '<div style="background:url(https://tracker.test/u">x</div>'],
    ['an escaped scheme', '<div style="background:url(h\\74tps://tracker.test/e)">x</div>'],
    ['image-set()', '<div style=\'background-image:image-set("https://tracker.test/s.png" 1x)\'>x</div>'],
    ['url(https:host)', '<p style="background:url(https:tracker.test/n)">x</p>'],
    ['an escaped function name', '<p class="a">x</p><style>.a{color:red;background:u\\rl(https://tracker.test/r)}</style>'],
  ])('loads nothing remote with images hidden: %s', (_label, html) => {
    const out = sanitizeEmailHtml(html).replace(/data-remote-src="[^"]*"/g, '')
    expect(out).not.toContain('tracker.test')
  })

  it('keeps inline cid: and data: images with remote images hidden', () => {
    const out = sanitizeEmailHtml('<img src="cid:logo"><img src="data:image/png;base64,AAAA">')
    expect(out).toBe('<img src="cid:logo"><img src="data:image/png;base64,AAAA">')
    const css = '<div style="color:red;background:url(data:image/png;base64,AAAA)">x</div>'
    expect(sanitizeEmailHtml(css)).toBe(css)
  })

  it('opens links in a new tab without a referrer', () => {
    expect(sanitizeEmailHtml('<a href="https://shop.test/order/1">Order</a>')).toBe(
      '<a href="https://shop.test/order/1" target="_blank" rel="noopener noreferrer nofollow">Order</a>',
    )
  })

  it('keeps ordinary email layout', () => {
    const html = '<table><tbody><tr><td style="color: red">Total</td><td><b>$25.00</b></td></tr></tbody></table>'
    expect(sanitizeEmailHtml(html)).toBe(html)
  })

  it('keeps the table and text attributes an email is laid out with', () => {
    const html =
      '<table width="600" cellpadding="4" cellspacing="0" border="0" bgcolor="#ffffff" align="center"><tbody>' +
      '<tr><th align="left" valign="bottom" scope="col">Item</th><th>Qty</th><th align="right">Price</th></tr>' +
      '<tr><td colspan="2" align="right" valign="top" width="50%" nowrap="">Subtotal</td><td rowspan="2" height="20" align="right">$84.88</td></tr>' +
      '</tbody></table><font color="#5f6368" face="Arial" size="2">Footer</font>'
    expect(sanitizeEmailHtml(html)).toBe(html)
  })

  it('still strips what is hostile next to the layout attributes', () => {
    const clean = sanitizeEmailHtml(
      '<table background="https://tracker.test/bg.png" width="600" onmouseover="alert(1)"><tbody><tr>' +
        '<td colspan="2" align="right" style="background:url(https://tracker.test/p.png);color:red" onclick="steal()">' +
        '<a href="javascript:alert(1)" width="1">x</a><img src="https://tracker.test/p.gif" width="1" height="1"></td></tr></tbody></table>' +
        '<script>alert(1)</script><div align="javascript:alert(1)" style="position:fixed;top:0">y</div>',
    )
    expect(clean).toContain('width="600"')
    expect(clean).toContain('colspan="2" align="right"')
    expect(clean).not.toMatch(/onmouseover|onclick|<script|javascript:alert\(1\)"?>x|tracker\.test\/bg|background:url|href="javascript/)
    expect(clean).not.toMatch(/ src="https:\/\/tracker/)
    expect(clean).not.toMatch(/position\s*:\s*fixed/)
    expect(clean).toContain('<div align="javascript:alert(1)" style="top:0">y</div>')
    expect(clean).toContain('data-remote-src="https://tracker.test/p.gif"')
  })

  it('does not let an escaped backslash smuggle a fetch or a fixed position past the checks', () => {
    const clean = sanitizeEmailHtml('<div style="background:\\5c 75rl(https://tracker.test/x.png);color:red">a</div><p style="\\5c 70osition:fixed">b</p>')
    expect(clean).not.toMatch(/tracker|\\/)
    expect(clean).toContain('color:red')
  })
})
