import { badRequest } from './google-error'

/** A parsed `fields` partial-response selector: each key is kept whole (true) or narrowed further. */
export type FieldTree = Map<string, FieldTree | true>

/**
 * Parses Google's `fields` syntax: `a,b/c,d(e,f)`; newer APIs such as Sheets also accept dots
 * (`sheets.properties.title`). See https://developers.google.com/workspace/sheets/api/guides/field-masks
 */
export function parseFieldMask(input: string): FieldTree {
  let position = 0
  const text = input.replace(/\s+/g, '')

  const fail = (): never => {
    throw badRequest(`Invalid field selection ${input}`, 'invalidParameter')
  }

  const merge = (tree: FieldTree, path: string[], leaf: FieldTree | true) => {
    let node = tree
    path.forEach((name, index) => {
      const isLast = index === path.length - 1
      const existing = node.get(name)
      if (isLast) {
        if (existing === true || leaf === true) node.set(name, true)
        else if (existing) for (const [key, value] of leaf) mergeInto(existing, key, value)
        else node.set(name, leaf)
        return
      }
      if (existing === true) return
      const next = existing ?? new Map()
      node.set(name, next)
      node = next
    })
  }

  const mergeInto = (tree: FieldTree, key: string, value: FieldTree | true) => merge(tree, [key], value)

  const parseList = (): FieldTree => {
    const tree: FieldTree = new Map()
    for (;;) {
      const path: string[] = []
      for (;;) {
        const match = /^[A-Za-z0-9_*@]+/.exec(text.slice(position))
        if (!match) fail()
        path.push(match![0])
        position += match![0].length
        const next = text[position]
        if (next === '/' || next === '.') {
          position += 1
          continue
        }
        break
      }
      let leaf: FieldTree | true = true
      if (text[position] === '(') {
        position += 1
        leaf = parseList()
        if (text[position] !== ')') fail()
        position += 1
      }
      merge(tree, path, leaf)
      if (text[position] === ',') {
        position += 1
        continue
      }
      return tree
    }
  }

  if (!text) return new Map()
  const tree = parseList()
  if (position !== text.length) fail()
  return tree
}

export function applyFieldMask(value: unknown, tree: FieldTree): unknown {
  if (Array.isArray(value)) return value.map((item) => applyFieldMask(item, tree))
  if (value === null || typeof value !== 'object') return value
  const source = value as Record<string, unknown>
  if (tree.has('*')) return value
  const result: Record<string, unknown> = {}
  for (const [key, sub] of tree) {
    if (!(key in source)) continue
    result[key] = sub === true ? source[key] : applyFieldMask(source[key], sub)
  }
  return result
}
