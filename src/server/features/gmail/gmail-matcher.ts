import type { EmailFilters } from '../../../shared/contracts/gmail'

export type MatchableMessage = {
  from: string
  subject: string
  labelNames: string[]
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
export function matchesFilters(message: MatchableMessage, filters: EmailFilters): boolean {
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
export function buildGmailQuery(filters: EmailFilters): string {
  const parts: string[] = []
  if (filters.filterFrom) parts.push(`from:${filters.filterFrom.trim()}`)
  if (filters.filterLabel) parts.push(`label:${quote(normaliseLabel(filters.filterLabel))}`)
  if (filters.filterSubject) {
    const words = filters.filterSubject.trim().split(/\s+/).slice(1, -1).filter((w) => /^[\p{L}\p{N}]+$/u.test(w))
    for (const word of words) parts.push(`subject:${word}`)
  }
  return parts.join(' ')
}
