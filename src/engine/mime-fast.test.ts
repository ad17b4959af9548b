import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CORPUS_DIR } from '../../tests/fixtures/corpus/generate'
import { buildEml } from '../../tests/fixtures/corpus/lib/mime'
import { createRng, type Rng } from '../../tests/fixtures/corpus/lib/prng'
import { parseEmail, parseEmailWithPostalMime } from './mime'
import { parseMimeFast } from './mime-fast'
import { eml } from './testing/eml'

/**
 * The fast path must give exactly what postal-mime gives, or decline. Each message is parsed
 * both ways through parseEmail (limits, warnings and normalisation included) and compared.
 */
async function expectSameAsPostalMime(raw: Uint8Array | string, label: string) {
  const fast = await parseEmail(raw)
  const reference = await parseEmailWithPostalMime(raw)
  expect(fast, label).toEqual(reference)
}

function handles(raw: Uint8Array | string): boolean {
  return parseMimeFast(typeof raw === 'string' ? Buffer.from(raw, 'latin1') : raw) !== null
}

function emlFiles(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name)
      return statSync(path).isDirectory() ? emlFiles(path) : path.endsWith('.eml') ? [path] : []
    })
    .sort()
}

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64')
const head = 'From: Shop <shop@example.com>\r\nTo: you@example.com\r\nSubject: Order\r\nDate: Mon, 5 Feb 2024 10:00:00 +0000\r\nMIME-Version: 1.0\r\n'
const pdf = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj <<>> endobj\n', 'latin1')
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0xff, 0x00, 0x3d])

/** Messages the fast path must read itself ([name, raw bytes as latin1 or a Buffer]). */
const covered: Array<[string, string | Buffer]> = [
  ['a calendar invitation', `${head}Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\ninvite\r\n--b\r\nContent-Type: text/calendar; method=request\r\n\r\nBEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n--b--\r\n`],
  [
    'a calendar invitation in Windows-1252, base64, ending in blank lines (its text kept in UTF-8 with one newline at the end)',
    `${head}Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\ninvite\r\n--b\r\nContent-Type: application/ics; charset=windows-1252; name=invite.ics\r\nContent-Transfer-Encoding: base64\r\n\r\n${b64(Buffer.from('BEGIN:VCALENDAR\r\nSUMMARY:Caf\xe9\r\nEND:VCALENDAR\r\n\r\n\r\n', 'latin1'))}\r\n--b--\r\n`,
  ],
  ['a single HTML part with LF line ends', `${head.replace(/\r\n/g, '\n')}Content-Type: text/html; charset=utf-8\n\n<p>Total: <b>$25.00</b></p>\n`],
  ['CRLF, LF, doubled CR and bare CR line ends mixed', `${head}Content-Type: text/plain\r\n\r\nline one\nline two\r\r\nline\rthree\r\n\r\nlast`],
  [
    'a multipart/alternative without its closing boundary',
    `${head}Content-Type: multipart/alternative; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nTotal: $5.00\r\n--b\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: base64\r\n\r\nPGI+SGVsbG88L2I+IFRvdGFs`,
  ],
  [
    'mixed > related > alternative, with an inline image and a PDF',
    `${head}Content-Type: multipart/mixed; boundary="m"\r\n\r\npreamble\r\n--m\r\nContent-Type: multipart/related; boundary="r"\r\n\r\n--r\r\nContent-Type: multipart/alternative; boundary="a"\r\n\r\n--a\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nCaf=C3=A9 =E2=82=AC5\r\n--a\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<p>Caf=C3=A9 <img src=3D"cid:logo"> =E2=82=\r\n=AC5</p>\r\n--a--\r\n--r\r\nContent-Type: image/png\r\nContent-ID: <logo>\r\nContent-Transfer-Encoding: base64\r\n\r\n${b64(png)}\r\n--r--\r\n--m\r\nContent-Type: application/pdf; name="invoice.pdf"\r\nContent-Disposition: attachment; filename="invoice.pdf"\r\nContent-Transfer-Encoding: base64\r\n\r\n${b64(pdf).replace(/.{20}/g, '$&\r\n')}\r\n--m--\r\nepilogue\r\n`,
  ],
  [
    'boundary lines with trailing whitespace, a preamble and an epilogue',
    `${head}Content-Type: multipart/alternative; boundary="x y"\r\n\r\nThis is a multi-part message.\r\n--x y \t\r\nContent-Type: text/plain\r\n\r\nplain\r\n--x y\r\nContent-Type: text/html\r\n\r\n<p>html</p>\r\n--x y-- \r\nepilogue --x y\r\n`,
  ],
  [
    'an inner boundary that extends the outer one',
    `${head}Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: multipart/alternative; boundary=b2\r\n\r\n--b2\r\nContent-Type: text/plain\r\n\r\none\r\n--b2\r\nContent-Type: text/html\r\n\r\n<p>two</p>\r\n--b2--\r\n--b\r\nContent-Type: text/csv\r\nContent-Disposition: attachment\r\n\r\na,b\r\n--b--\r\n`,
  ],
  [
    'an inner multipart that is never closed before the outer boundary',
    `${head}Content-Type: multipart/mixed; boundary=outer\r\n\r\n--outer\r\nContent-Type: multipart/alternative; boundary=inner\r\n\r\n--inner\r\nContent-Type: text/plain\r\n\r\ntext\r\n--inner\r\nContent-Type: text/html\r\n\r\n<b>html</b>\r\n--outer\r\nContent-Type: application/octet-stream\r\n\r\nraw bytes\r\n--outer--\r\n`,
  ],
  [
    'the outer terminator while an inner multipart is open',
    `${head}Content-Type: multipart/mixed; boundary=outer\r\n\r\n--outer\r\nContent-Type: multipart/alternative; boundary=inner\r\n\r\n--inner\r\nContent-Type: text/html\r\n\r\n<b>html</b>\r\n--outer--\r\n--inner\r\nContent-Type: text/plain\r\n\r\nafter the end\r\n`,
  ],
  [
    'the same boundary string at two levels',
    `${head}Content-Type: multipart/mixed; boundary=same\r\n\r\n--same\r\nContent-Type: multipart/alternative; boundary=same\r\n\r\n--same\r\nContent-Type: text/html\r\n\r\n<p>one</p>\r\n--same--\r\n--same\r\nContent-Type: text/html\r\n\r\n<p>two</p>\r\n--same--\r\n`,
  ],
  [
    'bad base64: junk characters, padding mid-body, a stray final character',
    `${head}Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\nPHA+SGVs bG8=PC9wPg==\r\n!!PGI+\xe9\xff-._d29y\r\nbGQ8L2I+Q\r\n`,
  ],
  ['base64 padded on every line', `${head}Content-Type: text/plain\r\nContent-Transfer-Encoding: BASE64\r\n\r\n${b64('ab')}\r\n${b64('cde')}\r\n${b64('f')}\r\n`],
  [
    'quoted-printable edge cases',
    `${head}Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nsoft=\r\nbreak =e9=E9 =ZZ =4\r\ntrailing = \r\n=3D=3d==41\r\n=\r\n=\r\nend=`,
  ],
  ['8-bit bytes in headers, valid and invalid UTF-8', `From: Zoë Müller <z@example.com>\r\nTo: Caf\xe9 <c@example.com>\r\nSubject: Prix: 5 \xe2\x82\xac \xff\xfe\r\nContent-Type: text/plain\r\n\r\nbody\r\n`],
  [
    'encoded words in Subject, From and To',
    `From: =?UTF-8?Q?Zo=C3=AB_M=C3=BCller?= <z@example.com>\r\nTo: =?ISO-8859-1?B?Q2Fm6Q==?= <c@example.com>, Team: a@example.com, b@example.com;\r\nTo: second@example.com\r\nSubject: =?UTF-8?B?w5xiZXIg?=\r\n =?UTF-8?B?ZGll?= =?utf-8?q?_Bestellung_=E2=82?= =?utf-8?q?=AC?= plain\r\nMessage-ID: <=?utf-8?q?x?=@example.com>\r\nContent-Type: text/plain\r\n\r\nbody\r\n`,
  ],
  [
    'folded headers, a duplicate Content-Type and a line without a colon',
    `${head}X-Folded: one\r\n\ttwo\r\n   three\r\nnot a header line\r\nContent-Type:\r\n text/html;\r\n\tcharset="utf-8"\r\nContent-Type: text/plain\r\n\r\n<p>first wins</p>\r\n`,
  ],
  ['a 300 KB line', `${head}Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n<p>${'word '.repeat(60_000)}</p>`],
  [
    'a part without headers and a part without a body',
    `${head}Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\r\ndefault text/plain\r\n--b\r\nContent-Type: text/plain\r\n--b\r\nContent-Type: image/gif\r\n\r\n--b--\r\n`,
  ],
  [
    'parameter quirks: valueless and uppercase names, a semicolon in quotes, a duplicate',
    `${head}Content-Type: Multipart/Alternative ; flag; BOUNDARY = "a;b" ; boundary=ignored;\r\n\r\n--a;b\r\nContent-Type: text/html; charset = "UTF-8"; x=" spaced "\r\n\r\n<p>ok</p>\r\n--a;b--\r\n`,
  ],
  [
    'Latin-1, windows-1252 and us-ascii labels, and a UTF-8 BOM',
    `${head}Content-Type: multipart/alternative; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain; charset=latin1\r\nContent-Transfer-Encoding: 8bit\r\n\r\nCaf\xe9 \x80 \x9d\r\n--b\r\nContent-Type: text/plain; charset=US-ASCII\r\n\r\nascii \xe9\r\n--b\r\nContent-Type: text/html; charset=windows-1252\r\n\r\n<p>\x93quoted\x94</p>\r\n--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n\xef\xbb\xbf<p>bom</p>\r\n--b--\r\n`,
  ],
  ['headers only, no blank line', `${head}Content-Type: text/plain`],
  ['a BOM at the start of a header line', `${head}\xef\xbb\xbfSubject: smuggled\r\nContent-Type: text/plain\r\n\r\nbody\r\n`],
  ['NUL bytes in the body', `${head}Content-Type: text/plain\r\n\r\na\x00b\x00\r\n`],
  ['multipart without a boundary', `${head}Content-Type: multipart/mixed\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nlost\r\n`],
  ['an empty Content-Type', `${head}Content-Type:\r\n\r\nbody\r\n`],
  [
    'attachment names: filename over name, encoded words, no name at all',
    `${head}Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/html\r\n\r\n<p>see attached</p>\r\n--b\r\nContent-Type: application/pdf; name="name.pdf"\r\nContent-Disposition: attachment; filename="=?UTF-8?Q?R=C3=A9sum=C3=A9?=.pdf"\r\nContent-Transfer-Encoding: base64\r\n\r\n${b64(pdf)}\r\n--b\r\nContent-Type: image/png; name=photo.png\r\nContent-Transfer-Encoding: base64\r\n\r\n${b64(png)}\r\n--b\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--b--\r\n`,
  ],
  ['base64 text with invalid UTF-8', `${head}Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${b64(Buffer.from([0x61, 0xe2, 0x82, 0x62, 0xff, 0xc3]))}\r\n`],
  ['an mbox From line first', `From sender@example.com Mon Feb  5 10:00:00 2024\r\n${head}Content-Type: text/plain\r\n\r\nbody\r\n`],
  ['two HTML parts in one alternative', `${head}Content-Type: multipart/alternative; boundary=b\r\n\r\n--b\r\nContent-Type: text/html\r\n\r\n<p>one</p>\r\n--b\r\nContent-Type: text/html\r\n\r\n<p>two</p>\r\n--b--\r\n`],
  ['an inline text part marked as an attachment', `${head}Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nbody\r\n--b\r\nContent-Type: text/plain; name=notes.txt\r\nContent-Disposition: ATTACHMENT\r\n\r\nnotes\r\n--b--\r\n`],
  ['a date that does not parse, an empty subject', `From: a@example.com\r\nSubject:\r\nSubject: second\r\nDate: sometime soon\r\nContent-Type: text/plain\r\n\r\nbody\r\n`],
]

/** Shapes left to postal-mime. */
const declined: Array<[string, string | Buffer]> = [
  ['an unknown transfer encoding (uuencode)', `${head}Content-Type: text/plain\r\nContent-Transfer-Encoding: x-uuencode\r\n\r\nbegin 644 a.txt\r\n#86)C\r\n\`\r\nend\r\n`],
  [
    'an attached message/rfc822',
    `${head}Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nforwarded:\r\n--b\r\nContent-Type: message/rfc822\r\n\r\nFrom: x@example.com\r\nSubject: inner\r\n\r\ninner body\r\n--b--\r\n`,
  ],
  ['a multipart/digest', `${head}Content-Type: multipart/digest; boundary=b\r\n\r\n--b\r\n\r\nFrom: x@example.com\r\n\r\ndigest entry\r\n--b--\r\n`],
  [
    'an RFC 2231 filename',
    `${head}Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nbody\r\n--b\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename*=UTF-8''R%C3%A9sum%C3%A9.pdf\r\n\r\nx\r\n--b--\r\n`,
  ],
  ['a comment in Content-Type', `${head}Content-Type: text/plain (comment); charset=utf-8\r\n\r\nbody\r\n`],
  ['format=flowed', `${head}Content-Type: text/plain; format=flowed; delsp=yes\r\n\r\nsoft \r\nbreak\r\n`],
  ['an unknown charset', Buffer.from(`${head}Content-Type: text/plain; charset=x-klingon\r\nContent-Transfer-Encoding: 8bit\r\n\r\nCafé total €5\r\n`)],
  ['a charset outside UTF-8 and Windows-1252', `${head}Content-Type: text/plain; charset=koi8-r\r\n\r\n\xf0\xd2\xc9\r\n`],
  ['HTML and plain side by side in a mixed (postal-mime converts between them)', `${head}Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/html\r\n\r\n<p>one</p>\r\n--b\r\nContent-Type: text/plain\r\n\r\ntwo\r\n--b--\r\n`],
  [
    'multiparts nested 12 deep',
    `${head}Content-Type: multipart/mixed; boundary=b0\r\n\r\n${Array.from({ length: 12 }, (_, i) => `--b${i}\r\nContent-Type: multipart/mixed; boundary=b${i + 1}\r\n\r\n`).join('')}--b12\r\nContent-Type: text/plain\r\n\r\ndeep\r\n`,
  ],
  [
    'a delivery status report',
    `${head}Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nundeliverable\r\n--b\r\nContent-Type: message/delivery-status\r\n\r\nStatus: 5.0.0\r\n--b--\r\n`,
  ],
  ['an unterminated quote in Content-Type', `${head}Content-Type: multipart/mixed; boundary="b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nbody\r\n`],
]

/** The parseEmail cases of mime.test.ts, malformed ones included. */
const mimeTestCases: Array<[string, string | Uint8Array]> = [
  ['eml() with an encoded subject and an attachment', eml({ subject: '=?UTF-8?B?w5xiZXIgZGllIEJlc3RlbGx1bmc=?=', text: 'Total: $25.00', html: '<p>Total: <b>$25.00</b></p>', attachments: [{ filename: 'invoice.pdf', mimeType: 'application/pdf', content: new TextEncoder().encode('%PDF-1.4 test') }] })],
  ['quoted-printable Latin-1', Buffer.from('From: a@example.com\r\nSubject: x\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nCaf=E9 cr=E8me, total =\r\n=E2=82=AC5\r\n', 'latin1')],
  ['base64 UTF-8 HTML', `From: a@example.com\r\nSubject: x\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${b64('<p>Zoë €5</p>')}\r\n`],
  ['an unknown charset', Buffer.from('From: a@example.com\r\nSubject: x\r\nContent-Type: text/plain; charset=x-klingon\r\nContent-Transfer-Encoding: 8bit\r\n\r\nCafé total €5\r\n')],
  ['a quoted-printable <meta> charset', 'From: a@example.com\r\nSubject: x\r\nContent-Type: text/html;\r\n charset="utf-8"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<meta content=3D"text/html; charset=3DUTF-8"><p>Caf=C3=A9</p>\r\n'],
  ['a truncated multipart', 'From: a@example.com\r\nSubject: x\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nTotal: $5.00\r\n--b\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: base64\r\n\r\nPGI+SGVsbG88L2I+IFRvdGFs'],
  ['empty input', ''],
  ['plain words', 'hello world, this is not an email'],
  ['a header-like line of nothing known', 'Foo: bar\r\n\r\nbody'],
  ['binary garbage', Uint8Array.from({ length: 64 * 1024 }, (_, i) => (i * 7919 + 13) % 256)],
  ['3,000 parts', `From: a@example.com\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n${Array.from({ length: 3000 }, (_, i) => `--b\r\nContent-Type: text/plain\r\n\r\npart ${i}\r\n`).join('')}--b--\r\n`],
]

/** Random small edits to a message: the structure breaks in places no one would write by hand. */
function mutate(raw: Buffer, rng: Rng): Buffer {
  const lines = raw.toString('latin1').split('\n')
  const boundaries = [...raw.toString('latin1').matchAll(/boundary="?([^";\r\n]+)/gi)].map((m) => m[1]!)
  const inserts = ['', '\r', '=', '=3D', '=\r', ' folded', '\tfolded', 'Content-Type: text/html; charset=latin1', 'Content-Transfer-Encoding: base64', 'Content-Disposition: attachment', '--', ...boundaries.flatMap((b) => [`--${b}`, `--${b}--`, `--${b} `, `--${b}x`])]
  const bytes = '-=\r\n;"( \t:\x80\xe9\xff\x00'
  for (let k = rng.int(1, 4); k > 0; k--) {
    const at = rng.int(0, lines.length - 1)
    switch (rng.int(0, 5)) {
      case 0:
        lines.splice(at, 1)
        break
      case 1:
        lines.splice(at, 0, lines[at]!)
        break
      case 2:
        lines.splice(at, 0, rng.pick(inserts))
        break
      case 3: {
        const line = lines[at] ?? ''
        const pos = rng.int(0, line.length)
        lines[at] = line.slice(0, pos) + rng.pick([...bytes]) + line.slice(pos + 1)
        break
      }
      case 4:
        lines[at] = (lines[at] ?? '').replace(/\r$/, '')
        break
      default:
        lines.length = Math.max(1, at)
    }
  }
  return Buffer.from(lines.join('\n'), 'latin1')
}

/** A random Content-Type from pieces that trip structured-header parsers. */
function randomContentType(rng: Rng): string {
  const pieces = ['text/html', 'text/plain', 'multipart/alternative', 'TEXT/HTML', ' ', ' ', ';', ';', '=', '=', '"', '"', 'charset', 'utf-8', 'latin1', 'boundary', 'b', 'name', 'x.pdf', '\t', '(', ')', '\\', '*', 'format', 'flowed', 'Charset', '__proto__', 'ü', 'a b']
  let s = rng.pick(['text/html', 'multipart/alternative', 'text/plain', ''])
  for (let k = rng.int(0, 10); k > 0; k--) s += rng.pick(pieces)
  return s
}

describe('the MIME fast path', () => {
  const corpus = emlFiles(CORPUS_DIR)

  // Every corpus email through both parsers: minutes on a busy machine.
  it('reads every corpus email itself, exactly as postal-mime does', { timeout: 180_000 }, async () => {
    expect(corpus.length).toBeGreaterThanOrEqual(400)
    for (const file of corpus) {
      const raw = readFileSync(file)
      expect(handles(raw), file).toBe(true)
      await expectSameAsPostalMime(raw, file)
    }
  })

  it.each(covered)('reads %s itself, exactly as postal-mime does', async (name, raw) => {
    const bytes = typeof raw === 'string' ? Buffer.from(raw, 'latin1') : raw
    expect(handles(bytes)).toBe(true)
    await expectSameAsPostalMime(bytes, name)
  })

  it.each(declined)('leaves %s to postal-mime', async (name, raw) => {
    const bytes = typeof raw === 'string' ? Buffer.from(raw, 'latin1') : raw
    expect(handles(bytes)).toBe(false)
    await expectSameAsPostalMime(bytes, name)
  })

  it.each(mimeTestCases)('gives parseEmail the same result for mime.test.ts: %s', async (name, raw) => {
    await expectSameAsPostalMime(raw, name)
  })

  it('agrees with postal-mime on generated emails with attachments, Latin-1 text and every transfer encoding', async () => {
    const rng = createRng(2024)
    let fast = 0
    for (let i = 0; i < 300; i++) {
      const text = `Order #${i}\nTotal: €${rng.int(1, 999)}.00\n${'Ünïcödé line '.repeat(rng.int(0, 30))}`
      const raw = buildEml(
        {
          from: rng.pick(['Shop <shop@example.com>', 'Zoë Café <z@example.com>']),
          to: 'you@example.com',
          subject: rng.pick(['Your order', 'Votre commande n° 5 — reçue', '注文']),
          date: new Date(Date.UTC(2024, 1, 5, 10, i)),
          messageId: `gen.${i}@example.com`,
          html: `<p>${text.replace(/\n/g, '<br>')}</p>`,
          text,
          format: rng.pick(['both', 'html', 'text'] as const),
          encoding: rng.pick(['quoted-printable', 'base64', '8bit'] as const),
          latin1Text: rng.chance(0.3),
          attachments: rng.chance(0.4) ? [{ filename: rng.pick(['invoice.pdf', 'photo 1.png']), mimeType: rng.pick(['application/pdf', 'image/png']), content: Buffer.from(Array.from({ length: rng.int(0, 3000) }, () => rng.int(0, 255))) }] : [],
        },
        rng,
      )
      if (handles(raw)) fast++
      await expectSameAsPostalMime(raw, `generated #${i}`)
    }
    expect(fast).toBe(300)
  })

  it('agrees with postal-mime on randomly damaged messages, or declines', async () => {
    const rng = createRng(7)
    const sources = [...rng.sample(corpus, 60).map((f) => readFileSync(f)), ...covered.map(([, raw]) => (typeof raw === 'string' ? Buffer.from(raw, 'latin1') : raw)).filter((b) => b.length < 100_000)]
    const counts = { fast: 0, declined: 0 }
    for (let i = 0; i < 1500; i++) {
      const raw = mutate(rng.pick(sources), rng)
      counts[handles(raw) ? 'fast' : 'declined']++
      await expectSameAsPostalMime(raw, `mutant #${i}`)
    }
    expect(counts.fast).toBeGreaterThan(1000)
  })

  it('agrees with postal-mime on random Content-Type headers, or declines', async () => {
    const rng = createRng(11)
    const counts = { fast: 0, declined: 0 }
    for (let i = 0; i < 1500; i++) {
      const type = randomContentType(rng)
      const raw = Buffer.from(`${head}Content-Type: ${type}\r\n\r\n--b\r\nContent-Type: ${randomContentType(rng)}\r\n\r\n<p>part</p>\r\n--b--\r\nbody\r\n`, 'utf8')
      counts[handles(raw) ? 'fast' : 'declined']++
      await expectSameAsPostalMime(raw, `Content-Type: ${type}`)
    }
    expect(counts.fast).toBeGreaterThan(300)
    expect(counts.declined).toBeGreaterThan(100)
  })
})
