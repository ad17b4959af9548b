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
})
