export function formatLongDate(value: string | Date): string {
  return new Date(value).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' })
}

export function formatMonthlyPrice(dollars: number): string {
  return `$${dollars}/month`
}
