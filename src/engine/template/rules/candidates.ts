/** A place a label or suffix rule found a value, and how closely its surroundings fit the sample's. */
export type Candidate = { start: number; value: string; fit: number }

/** The candidates that fit best, in document order: a rule's `ordinal` counts among these. */
export function bestFitting(candidates: Candidate[]): Candidate[] {
  let best = -1
  for (const c of candidates) if (c.fit > best) best = c.fit
  return candidates.filter((c) => c.fit === best)
}

/** The `ordinal`-th of the best-fitting candidates; `of`: how many fit that well. */
export function pick(candidates: Candidate[], ordinal: number): { candidate: Candidate; fit: number; of: number } | null {
  const group = bestFitting(candidates)
  const candidate = group[ordinal]
  return candidate ? { candidate, fit: candidate.fit, of: group.length } : null
}

/** A rule kind that has no weaker fits: its value at the kind's base confidence. */
export function withoutPenalty(value: string | null): { value: string; penalty: number } | null {
  return value === null ? null : { value, penalty: 0 }
}
