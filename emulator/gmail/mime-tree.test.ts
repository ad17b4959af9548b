import { describe, expect, it } from 'vitest'
import { buildRfc822 } from '../demo/mime-builder'
import { normalizeLineEndings, parseMimeTree } from './mime-tree'

describe('parseMimeTree', () => {
  it('numbers parts like Gmail and decodes transfer encodings', () => {
    const raw = buildRfc822({
      from: { name: 'Zoë Müller', address: 'zoe@example.test' },
      to: { address: 'demo@mailrow.test' },
      subject: 'Grüße – invoice €12',
      date: new Date(Date.UTC(2024, 4, 1, 9)),
      messageId: 'm1@example.test',
      text: `Total: €12.00\n${'long line '.repeat(20)}`,
      html: '<p>Total: <b>€12.00</b></p>',
      attachments: [{ filename: 'data.csv', contentType: 'text/csv', content: Buffer.from('a,b\n1,2\n') }],
    })
    const tree = parseMimeTree(raw)
    expect(tree.mimeType).toBe('multipart/mixed')
    expect(tree.headers.find((header) => header.name === 'Subject')!.value).toBe('Grüße – invoice €12')
    expect(tree.headers.find((header) => header.name === 'From')!.value).toBe('Zoë Müller <zoe@example.test>')
    expect(tree.parts.map((part) => part.partId)).toEqual(['0', '1'])
    expect(tree.parts[0]!.parts.map((part) => [part.partId, part.mimeType])).toEqual([
      ['0.0', 'text/plain'],
      ['0.1', 'text/html'],
    ])
    expect(tree.parts[0]!.parts[0]!.body.toString('utf8')).toBe(`Total: €12.00\r\n${'long line '.repeat(20)}`)
    expect(tree.parts[1]).toMatchObject({ partId: '1', filename: 'data.csv', mimeType: 'text/csv' })
    expect(tree.parts[1]!.body.toString()).toBe('a,b\n1,2\n')
  })

  it('keeps a single-part message as the root with partId ""', () => {
    const tree = parseMimeTree(Buffer.from('Subject: hi\r\n\r\nbody\r\n'))
    expect(tree).toMatchObject({ partId: '', mimeType: 'text/plain', filename: '', parts: [] })
    expect(tree.body.toString()).toBe('body\r\n')
  })

  it('reads RFC 2231 file names and survives malformed input', () => {
    const raw = Buffer.from(
      "Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename*=UTF-8''Rechnung%20M%C3%A4rz.pdf\r\n\r\n%PDF\r\n--x--\r\n",
    )
    expect(parseMimeTree(raw).parts[0]!.filename).toBe('Rechnung März.pdf')
    expect(() => parseMimeTree(Buffer.from('garbage without headers'))).not.toThrow()
    expect(parseMimeTree(Buffer.from('Content-Type: multipart/mixed; boundary=y\r\n\r\nno parts here')).parts).toEqual([])
  })

  it('normalises bare LF line ends to CRLF', () => {
    expect(normalizeLineEndings(Buffer.from('a\nb\r\nc')).toString()).toBe('a\r\nb\r\nc')
  })
})
