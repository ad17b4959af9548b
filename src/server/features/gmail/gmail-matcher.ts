import type { EmailFilters } from '@shared/contracts/gmail'
import type { AdvancedFilters } from '@shared/contracts/parser-edit'

export type MatchableMessage = {
  from: string
  subject: string
  labelNames: string[]
  /** The body as text and the number of attachments: needed only by the advanced filters (`needsBody`). */
  body?: string | null
  attachments?: number
}

/** Whether the advanced filters read the body or attachments (then the caller downloads the whole message). */
export function needsBody(advanced: AdvancedFilters | null | undefined): boolean {
  return Boolean(advanced && (advanced.bodyContains || advanced.excludeWords.length > 0 || advanced.hasAttachment))
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A whole word or phrase, case-insensitive: 'test' excludes "a test order", not "contest". */
function containsWord(text: string, word: string): boolean {
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(word.trim())}(?![\\p{L}\\p{N}])`, 'iu').test(text)
}

/**
 * Starter's advanced filters (issue 12): sender domain (or a subdomain of it), body contains
 * (case-insensitive), none of the excluded words in subject or body, at least one attachment. The
 * Gmail search is Gmail's to decide (`buildGmailQuery`, and the pipeline's check per message).
 */
export function matchesAdvanced(message: MatchableMessage, advanced: AdvancedFilters | null | undefined): boolean {
  if (!advanced) return true
  if (advanced.senderDomain) {
    const domain = senderAddress(message.from).split('@')[1] ?? ''
    if (domain !== advanced.senderDomain && !domain.endsWith(`.${advanced.senderDomain}`)) return false
  }
  const body = message.body ?? ''
  if (advanced.bodyContains && !body.toLowerCase().includes(advanced.bodyContains.toLowerCase())) return false
  if (advanced.excludeWords.some((word) => containsWord(message.subject, word) || containsWord(body, word))) return false
  if (advanced.hasAttachment && !(message.attachments && message.attachments > 0)) return false
  return true
}

/** The address inside a From header: `"Shop" <orders@shop.test>` → `orders@shop.test`. */
export function senderAddress(from: string): string {
  const angle = from.match(/<([^<>\s]+@[^<>\s]+)>/)
  const bare = angle?.[1] ?? from.match(/[^\s<>"',;:]+@[^\s<>"',;:]+/)?.[0] ?? from
  return bare.trim().toLowerCase()
}

/**
 * The one rule that decides whether an email belongs to a parser, used by the wizard's list and
 * by the pipeline: From is the sender address (case-insensitive), Subject a case-insensitive
 * contains, Label a label name (case-insensitive). Blank filters match anything.
 */
export function matchesFilters(message: MatchableMessage, filters: EmailFilters, advanced?: AdvancedFilters | null): boolean {
  if (!matchesAdvanced(message, advanced)) return false
  if (filters.filterFrom && senderAddress(message.from) !== filters.filterFrom.trim().toLowerCase()) return false
  if (filters.filterSubject && !message.subject.toLowerCase().includes(filters.filterSubject.trim().toLowerCase())) {
    return false
  }
  if (filters.filterLabel) {
    const wanted = normaliseLabel(filters.filterLabel)
    if (!message.labelNames.some((name) => normaliseLabel(name) === wanted)) return false
  }
  return true
}

function normaliseLabel(name: string) {
  return name.trim().toLowerCase().replace(/[\s/]+/g, '-')
}

const quote = (value: string) => `"${value.replace(/["\\]/g, ' ').trim()}"`

/**
 * A Gmail search that returns a superset of the matches, so the local matcher can decide.
 * Gmail searches subjects by whole words, while the filter is a substring; only the words of the
 * filter that have a space on both sides are certainly whole words of the subject.
 */
export function buildGmailQuery(filters: EmailFilters, advanced?: AdvancedFilters | null): string {
  const parts: string[] = []
  if (filters.filterFrom) parts.push(`from:${filters.filterFrom.trim()}`)
  if (filters.filterLabel) parts.push(`label:${quote(normaliseLabel(filters.filterLabel))}`)
  if (filters.filterSubject) {
    const words = filters.filterSubject.trim().split(/\s+/).slice(1, -1).filter((w) => /^[\p{L}\p{N}]+$/u.test(w))
    for (const word of words) parts.push(`subject:${word}`)
  }
  // The user's own Gmail search narrows exactly as Gmail reads it (parenthesised: its ORs stay its own).
  if (advanced?.gmailQuery) parts.push(`(${advanced.gmailQuery})`)
  return parts.join(' ')
}
