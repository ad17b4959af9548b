/** Stripe's request encoding: form fields with bracketed keys (`line_items[0][price]=...`) into an object. */
export type FormValue = string | FormObject | FormValue[]
export type FormObject = { [key: string]: FormValue }

export function decodeStripeForm(params: URLSearchParams): FormObject {
  const root: FormObject = {}
  for (const [rawKey, value] of params) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(rawKey)
    if (!match) continue
    const path = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)]
    let node: FormObject = root
    for (let i = 0; i < path.length - 1; i++) {
      const key = path[i]!
      const next = node[key]
      if (typeof next !== 'object' || next === null) node[key] = {}
      node = node[key] as FormObject
    }
    node[path.at(-1)!] = value
  }
  return root
}

/** Reads a string field (a nested object field by its path). */
export function field(form: FormObject, ...path: (string | number)[]): string | undefined {
  let node: FormValue | undefined = form
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined
    node = (node as FormObject)[String(key)]
  }
  return typeof node === 'string' ? node : undefined
}

/** A `metadata[...]` style map of strings. */
export function stringMap(form: FormObject, key: string): Record<string, string> {
  const value = form[key]
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {}
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
}
