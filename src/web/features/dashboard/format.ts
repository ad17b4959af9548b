const METHOD_LABELS: Record<string, string> = {
  template: 'Template (pattern matching)',
  smart_ai: 'Smart AI',
  full_ai: 'Full AI',
  'template+smart_ai': 'Template, with Smart AI for missed fields',
  'template+full_ai': 'Template, with Full AI for missed fields',
}

export function formatExtractionMethod(method: string | null | undefined): string {
  if (!method) return 'None'
  return METHOD_LABELS[method] ?? method
}

/** Spec §2: timestamps in the user's local date-time. */
export function formatDateTime(value: string): string {
  return new Date(value).toLocaleString()
}

/** Spec §3: any status other than 'success' is shown as failed. */
export function isSuccess(status: string): boolean {
  return status === 'success'
}

const STATUS_DETAILS: Record<string, string> = {
  partial: 'Some fields were not found',
  failed: 'No field was found, or the email could not be read',
  quota_exceeded: "Waiting for allowance: this month's email limit was reached. It is parsed when your allowance allows.",
  skipped: 'Skipped',
  pending: 'Waiting to be processed',
  processing: 'Being processed',
}

/** A plain-language reason for a non-success status, beyond the red 'Failed'. */
export function describeStatus(status: string): string | null {
  if (isSuccess(status)) return null
  return STATUS_DETAILS[status] ?? status
}
