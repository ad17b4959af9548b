

export type Span = [number, number]

/**
 * Sorts spans and merges those that overlap, so lookups can binary-search. Learning asks "is this
 * token variable?" for every token it looks at; a linear scan of thousands of spans made hostile
 * samples quadratic.
 */
export function mergeSpans(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a[0] - b[0])
  const out: Span[] = []
  for (const [s, e] of sorted) {
    const last = out[out.length - 1]
    if (last && s < last[1]) last[1] = Math.max(last[1], e)
    else out.push([s, e])
  }
  return out
}

/** The merged span overlapping [start, end), if any (spans sorted and merged). */
export function spanAt(spans: Span[], start: number, end: number): Span | undefined {
  let lo = 0
  let hi = spans.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const [s, e] = spans[mid]!
    if (e <= start) lo = mid + 1
    else if (s >= end) hi = mid - 1
    else return spans[mid]
  }
  return undefined
}

/** Index of the first span ending after `pos`. */
export function spanIndexFrom(spans: Span[], pos: number): number {
  let lo = 0
  let hi = spans.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (spans[mid]![1] <= pos) lo = mid + 1
    else hi = mid
  }
  return lo
}

export function overlaps(spans: Span[], start: number, end: number): boolean {
  return spanAt(spans, start, end) !== undefined
}
