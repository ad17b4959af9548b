import type { FieldType } from '../shared/contracts/extraction'

/** The form of a value, learned from the sample and checked on every later email. */
export type Shape = 'money' | 'date' | 'time' | 'email' | 'url' | 'phone' | 'number' | 'id' | 'text'

/** How a strong shape is matched: which optional parts the sample showed. */
export type ShapeOptions = {
  /**
   * money: the sample's amount had a currency code after it (`$25.00 USD`). Kept in stored
   * templates; a code after an amount is now read as part of it either way (decision 030).
   */
  currencySuffix?: boolean
  /** date: a time of day after the date. */
  withTime?: boolean
  /** number: a trailing percent sign. */
  percent?: boolean
  /** id: a skeleton of character classes, e.g. `A-9-9` for INV-2024-0012. */
  skeleton?: string
  /** id: whether the sample had lower-case letters. */
  lower?: boolean
}

const CURRENCY_SYMBOL = '[$€£¥₹₩₽₪₫฿₱₦₴₸]'
const CURRENCY_CODES = 'USD|EUR|GBP|CAD|AUD|NZD|CHF|JPY|CNY|INR|SEK|NOK|DKK|PLN|CZK|HUF|BRL|MXN|ZAR|SGD|HKD'
const CURRENCY_CODE = `(?:${CURRENCY_CODES})`
const CURRENCY_WORD = new RegExp(`^(?:${CURRENCY_CODES})$`, 'i')
/** A currency's code as a word (`eur` of `Price in EUR`): it changes with the shop's currency. */
export function isCurrencyCode(word: string): boolean {
  return CURRENCY_WORD.test(word)
}
/** Thousands grouped by threes (`1,234.56`, `1 234,56`), or the Indian way by lakhs (`1,23,456.00`). */
const AMOUNT = '\\d{1,2}(?:,\\d{2})+,\\d{3}(?:\\.\\d{1,2})?|\\d{1,3}(?:[,.\\u202f\\u00a0 \']\\d{3})+(?:[.,]\\d{1,2})?|\\d+(?:[.,]\\d{1,2})?'
const SIGN = '[-−–]?'
const MONEY_CORE =
  `${SIGN}\\(?(?:(?:${CURRENCY_SYMBOL}|Rs\\.?)\\s?${SIGN}(?:${AMOUNT})|(?:US|CA|AU|NZ|HK|MX|R|S|A|C)?\\$\\s?(?:${AMOUNT})|${CURRENCY_CODE}\\s?${SIGN}(?:${AMOUNT})|(?:${AMOUNT})\\s?(?:${CURRENCY_SYMBOL}|kr|zł|Kč|Ft|lei|円|元|원))\\)?`
const MONTHS_EN = 'jan(?:uary|\\.)?|feb(?:ruary|\\.)?|mar(?:ch|\\.)?|apr(?:il|\\.)?|may|june?|july?|aug(?:ust|\\.)?|sep(?:t(?:ember)?|\\.)?|sept\\.|oct(?:ober|\\.)?|nov(?:ember|\\.)?|dec(?:ember|\\.)?'
/** Month names senders write in Spanish, French, German, Dutch, Portuguese and Italian, full or short. */
const MONTHS_OTHER = [
  'enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|ene|abr|ago|dic',
  'janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre|novembre|décembre|decembre|janv|févr|fevr|avr|juil|déc',
  'januar|februar|märz|maerz|april|juni|juli|oktober|dezember|mär|okt|dez',
  'januari|februari|maart|mei|augustus|mrt',
  'janeiro|fevereiro|março|marco|maio|junho|julho|setembro|outubro|novembro|dezembro|fev|set|out',
  'gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre|dicembre|gen|mag|giu|lug|ott',
]
  .join('|')
  .split('|')
  .map((m) => `${m}\\.?`)
  .join('|')
const MONTHS = `${MONTHS_EN}|${MONTHS_OTHER}`
const WEEKDAY =
  '(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|lunes|martes|miércoles|miercoles|jueves|viernes|sábado|sabado|domingo|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag|segunda-feira|terça-feira|quarta-feira|quinta-feira|sexta-feira)\\.?,?\\s+'
/** `1er` is how French writes the first of a month. */
const DAY = '(?:[12]\\d|3[01]|0?[1-9])(?:st|nd|rd|th|er)?'
const WEEKDAY_NAMES =
  'monday|mon|tuesday|tue|tues|wednesday|wed|thursday|thu|thur|thurs|friday|fri|saturday|sat|sunday|sun|' +
  WEEKDAY.slice(WEEKDAY.indexOf('lundi'), WEEKDAY.indexOf(')\\.?'))
const DATE_WORD = new RegExp(`^(?:${WEEKDAY_NAMES}|${MONTHS})\\.?$`, 'u')

/**
 * A weekday's or a month's name alone (`Tuesday`, `mars`): part of a date, so data that changes
 * with it, never a label to find a value by.
 */
export function isDateWord(word: string): boolean {
  return DATE_WORD.test(word.toLowerCase())
}
const YEAR = '(?:19|20)\\d{2}'
const DATE_CORE =
  `(?:${WEEKDAY})?(?:` +
  `${YEAR}[-/.](?:1[0-2]|0?[1-9])[-/.](?:[12]\\d|3[01]|0?[1-9])` +
  `|(?:[12]\\d|3[01]|0?[1-9])[-/.](?:[12]\\d|3[01]|0?[1-9])[-/.](?:${YEAR}|\\d{2})` +
  `|(?:${MONTHS})\\s+${DAY}(?:,?\\s+${YEAR})?` +
  `|${DAY}\\.?(?:\\s+(?:of|de))?[\\s-](?:${MONTHS})(?:,?(?:\\s+de)?[\\s-]${YEAR}|[\\s-]\\d{2}(?!\\d))?` +
  `|${YEAR}[\\s-](?:${MONTHS})\\.?[\\s-]${DAY}` +
  `|${YEAR}年\\d{1,2}月\\d{1,2}日` +
  `)`
const ZONE = '(?:UTC|GMT|Z|[ECMP][SD]T|BST|CES?T|EES?T|IST|JST|AES?T|AEDT|WES?T|AK[SD]T|HST|NZ[SD]T|SGT|HKT|KST)(?:[+-]\\d{1,2}(?::?\\d{2})?)?'
const TIME_CORE = `(?:[01]?\\d|2[0-3])h(?:[0-5]\\d)?(?![\\p{L}\\p{N}])|(?:[01]?\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d)?(?:\\s?[ap]\\.?m\\.?)?(?:\\s?\\(?${ZONE}\\)?)?|(?:1[0-2]|0?[1-9])\\s?[ap]\\.?m\\.?(?:\\s?\\(?${ZONE}\\)?)?`
const DATE_TIME_JOIN = '(?:,?\\s+(?:at\\s+|à\\s+|um\\s+|om\\s+|a\\s+las\\s+|às\\s+|alle\\s+|@\\s*|[·|–-]\\s+)?|T)'
const EMAIL_CORE = "[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+"
const URL_CORE = "(?:https?://|www\\.)[^\\s<>\"']+[^\\s<>\"'.,;:!?)\\]]"
const PHONE_CORE = '\\+?\\(?\\d[\\d\\s().-]{5,}\\d'
const NUMBER_CORE = `${SIGN}(?:\\d{1,3}(?:[,\\u202f ]\\d{3})+(?:\\.\\d+)?|\\d{1,3}(?:\\.\\d{3})+(?:,\\d+)?|\\d+(?:[.,]\\d+)?)`
const ID_CORE = '#?[A-Za-z0-9](?:[A-Za-z0-9_\\-/.#:]*[A-Za-z0-9])?'

const full = (core: string) => new RegExp(`^(?:${core})$`, 'i')
const FULL = {
  money: full(`${MONEY_CORE}(?:\\s?${CURRENCY_CODE})?`),
  date: full(`${DATE_CORE}(?:${DATE_TIME_JOIN}(?:${TIME_CORE}))?`),
  time: full(TIME_CORE),
  email: full(EMAIL_CORE),
  url: full(URL_CORE),
  phone: full(PHONE_CORE),
  number: full(`${NUMBER_CORE}\\s?%?`),
}

const SPAN_PATTERNS = [
  `(?:${DATE_CORE})(?:${DATE_TIME_JOIN}(?:${TIME_CORE}))?`,
  TIME_CORE,
  `${MONEY_CORE}(?:\\s?${CURRENCY_CODE})?`,
  EMAIL_CORE,
  URL_CORE,
].map((core) => new RegExp(`(?<![\\p{L}\\p{N}])(?:${core})(?![\\p{L}\\p{N}])`, 'giu'))

/** Where dates, times, amounts, addresses and links sit in a text: variable by nature, never anchors. */
export function findShapeSpans(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = []
  for (const re of SPAN_PATTERNS) {
    re.lastIndex = 0
    let m: RegExpExecArray | null
    while ((m = re.exec(text)) !== null && out.length < 5000) {
      if (m[0].length === 0) {
        re.lastIndex++
        continue
      }
      if (/\p{N}/u.test(m[0]) || m[0].includes('@')) out.push([m.index, m.index + m[0].length])
    }
  }
  return out
}

/** Sticky regexes: the shape's longest match starting at a position. */
const stickyCache = new Map<string, RegExp>()
function sticky(shape: Shape, options: ShapeOptions): RegExp | null {
  const key = `${shape}|${options.withTime ? 1 : 0}|${options.percent ? 1 : 0}`
  const cached = stickyCache.get(key)
  if (cached) return cached
  let core: string
  switch (shape) {
    case 'money':
      // A currency code after the amount is part of it (`$645.00 USD`), whether or not the
      // sample's amount had one: senders add it for some currencies or customers only.
      core = `${MONEY_CORE}(?:\\s?${CURRENCY_CODE})?`
      break
    case 'date':
      core = `${DATE_CORE}${options.withTime ? `(?:${DATE_TIME_JOIN}(?:${TIME_CORE}))?` : ''}`
      break
    case 'time':
      core = TIME_CORE
      break
    case 'email':
      core = EMAIL_CORE
      break
    case 'url':
      core = URL_CORE
      break
    case 'phone':
      core = PHONE_CORE
      break
    case 'number':
      core = `${NUMBER_CORE}${options.percent ? '\\s?%' : ''}`
      break
    case 'id':
      core = ID_CORE
      break
    default:
      return null
  }
  // The lookahead keeps a shape from stopping inside a longer word or number.
  const re = new RegExp(`(?:${core})(?![\\p{L}\\p{N}])`, 'iyu')
  stickyCache.set(key, re)
  return re
}

/**
 * A regex source for any date (with or without a time): how a line pattern tells a date of words
 * (`mercredi 17 avril`) from free text beside it. Null for other shapes: amounts were tried too
 * and read wrong values silently on senders the rules were not tuned on (decision 027).
 */
export function shapeSource(shape: Shape): string | null {
  return shape === 'date' ? `${DATE_CORE}(?:${DATE_TIME_JOIN}(?:${TIME_CORE}))?` : null
}

/** The longest text of the shape that starts exactly at `start`, or null. */
export function matchShapeAt(text: string, start: number, shape: Shape, options: ShapeOptions): string | null {
  const re = sticky(shape, options)
  if (!re) return null
  re.lastIndex = start
  const m = re.exec(text)
  return m ? m[0] : null
}

const HAS_DIGIT = /\d/
/** The words senders put in a price's place when there is nothing to pay. */
const NO_CHARGE = /^(?:free|free shipping|gratis|kostenlos|gratuit|gratuite|offert|gratuito|grátis|included|inclus|inklusive|incluido)$/i
const HAS_LETTER = /\p{L}/u

/** Letters → A, digits → 9, separators kept: `INV-2024-0012` → `A-9-9`, `Apr 18, 2025` → `A 9, 9`. */
export function skeletonOf(value: string): string {
  return value
    .replace(/\d+/g, '9')
    .replace(/[A-Za-z]+/g, 'A')
    .replace(/(?:[A9]){2,}/g, 'X')
}

/** Whether a value of a learned shape still has that shape. */
export function fitsShape(value: string, shape: Shape, options: ShapeOptions): boolean {
  switch (shape) {
    case 'text':
      return value.trim() !== ''
    case 'id': {
      if (/\s/.test(value) || value.length > 80 || !/[\p{L}\p{N}]/u.test(value)) return false
      if (HAS_DIGIT.test(value)) return true
      // An id without digits (R-JJWZXNX) still has the sample's separators and letter case; a word does not.
      const separators = (s: string) => s.replace(/[A9X]+/g, 'W')
      if (options.skeleton !== undefined && separators(skeletonOf(value)) !== separators(options.skeleton)) return false
      return options.lower !== false || !/\p{Ll}/u.test(value)
    }
    case 'money':
      // `Shipping: Free` where the sample had `$4.99`: a price of nothing is still the price.
      return FULL.money.test(value.trim()) || NO_CHARGE.test(value.trim())
    default:
      return FULL[shape].test(value.trim())
  }
}

/** Whether an id keeps the sample's skeleton (letters, digits, separators). */
export function sameSkeleton(value: string, options: ShapeOptions): boolean {
  return options.skeleton === undefined || skeletonOf(value) === options.skeleton
}

/** Detects a value's shape; a field type, when given, wins if the value fits it. */
export function detectShape(value: string, type?: FieldType): { shape: Shape; options: ShapeOptions } {
  const v = value.trim()
  if (type === 'money' && FULL.money.test(v)) return { shape: 'money', options: moneyOptions(v) }
  if (type === 'money' && FULL.number.test(v)) return { shape: 'number', options: { percent: false } }
  if (type === 'date' && FULL.date.test(v)) return { shape: 'date', options: { withTime: hasTime(v) } }
  if (type === 'number' && FULL.number.test(v)) return { shape: 'number', options: { percent: v.endsWith('%') } }
  if (type === 'email' && FULL.email.test(v)) return { shape: 'email', options: {} }
  if (type === 'text') return { shape: 'text', options: {} }
  if (FULL.email.test(v)) return { shape: 'email', options: {} }
  if (FULL.url.test(v)) return { shape: 'url', options: {} }
  if (FULL.money.test(v) && /[^\d\s.,%'-]/.test(v)) return { shape: 'money', options: moneyOptions(v) }
  if (FULL.date.test(v) && (HAS_LETTER.test(v) || /\d{4}|\d[-/.]\d{1,2}[-/.]\d/.test(v))) return { shape: 'date', options: { withTime: hasTime(v) } }
  if (FULL.time.test(v)) return { shape: 'time', options: {} }
  // A long run of digits is a reference (tracking, account, order number), not a quantity: the
  // next email's may be longer, or have letters (`1Z999AA10123456784`).
  if (/^\d{9,}$/.test(v)) return { shape: 'id', options: { skeleton: skeletonOf(v), lower: false } }
  if (FULL.number.test(v)) return { shape: 'number', options: { percent: v.endsWith('%') } }
  // A phone number has 7 to 15 digits (E.164's longest); more, in groups, is a reference (`111-9719503-6430454`).
  const digitCount = v.match(/\d/g)?.length ?? 0
  if (FULL.phone.test(v) && digitCount >= 7 && digitCount <= 15) return { shape: 'phone', options: {} }
  if (!/\s/.test(v) && HAS_DIGIT.test(v) && v.length <= 80) return { shape: 'id', options: { skeleton: skeletonOf(v), lower: /\p{Ll}/u.test(v) } }
  return { shape: 'text', options: {} }
}

function moneyOptions(v: string): ShapeOptions {
  return { currencySuffix: new RegExp(`${CURRENCY_CODE}$`, 'i').test(v) }
}

function hasTime(v: string): boolean {
  return /\d:[0-5]\d|\dh[0-5]\d|\d\s?[ap]\.?m\b/i.test(v)
}

/** Strong shapes are checked on every extracted value; text is not. */
export function isStrong(shape: Shape): boolean {
  return shape !== 'text'
}

/** Coarse class of a table cell, for matching line-item rows. */
export type CellClass = 'empty' | 'num' | 'text'
const MONEY_CELL = `${MONEY_CORE}(?:\\s?${CURRENCY_CODE})?`
/** An amount, a number, `×2`; or an old price struck through before the price (`€444.58 €355.66`). */
const NUMERIC_CELL = new RegExp(`^(?:${MONEY_CELL}(?:\\s+${MONEY_CELL})?|${NUMBER_CORE}\\s?%?|[x×]\\s?\\d+|\\d+\\s?[x×])$`, 'i')
export function cellClass(cell: string): CellClass {
  const c = cell.trim()
  if (c === '') return 'empty'
  if (NUMERIC_CELL.test(c)) return 'num'
  // An amount over lines of its own (`₹4,799 • 54% off`: a discount under the price) is the amount.
  const joined = c.indexOf(' • ')
  return joined > 0 && NUMERIC_CELL.test(c.slice(0, joined)) ? 'num' : 'text'
}

export function hasDigit(s: string): boolean {
  return HAS_DIGIT.test(s)
}
