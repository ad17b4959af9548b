/** A place a label or suffix rule found a value, and how closely its surroundings fit the sample's. */
export type Candidate = { start: number; value: string; fit: number }

export function pick(candidates: Candidate[], ordinal: number): { candidate: Candidate; fit: number } | null {
  if (candidates.length === 0) return null
  let best = -1
  for (const c of candidates) if (c.fit > best) best = c.fit
  const group = candidates.filter((c) => c.fit === best)
  const candidate = group[ordinal]
  return candidate ? { candidate, fit: best } : null
}

/** A rule kind that has no weaker fits: its value at the kind's base confidence. */
export function withoutPenalty(value: string | null): { value: string; penalty: number } | null {
  return value === null ? null : { value, penalty: 0 }
}
