import type { ExtractionField } from '@shared/contracts/extraction'
import type { EmailFilters } from '@shared/contracts/gmail'
import type { CreateParserInput, RowMode } from '@shared/contracts/parsers'
import type { ParserType } from '@shared/plans'

/** Everything the wizard collects before 'Activate Parser'; the page owns one of these. */
export type WizardDraft = {
  filters: { filterFrom: string; filterSubject: string; filterLabel: string }
  /** The email the fields were highlighted in (a Gmail id, or the built-in sample's id). */
  sampleId: string | null
  fields: ExtractionField[]
  parserType: ParserType
  parseAttachments: boolean
  /** Asked only when the trained fields include line items; one row per email otherwise. */
  rowMode: RowMode
  destination: { type: 'new' | 'existing'; spreadsheet: string }
  name: string
  parseHistorical: boolean
}

export type DraftPatch = Partial<WizardDraft>

/** Spec §4 defaults: a new spreadsheet, the template parser, historical parsing off; one row per email. */
export const INITIAL_DRAFT: WizardDraft = {
  filters: { filterFrom: '', filterSubject: '', filterLabel: '' },
  sampleId: null,
  fields: [],
  parserType: 'template',
  parseAttachments: false,
  rowMode: 'per_email',
  destination: { type: 'new', spreadsheet: '' },
  name: '',
  parseHistorical: false,
}

/** The filters as the API takes them: trimmed, blanks as null. */
export function toEmailFilters(filters: WizardDraft['filters']): EmailFilters {
  const clean = (value: string) => value.trim() || null
  return { filterFrom: clean(filters.filterFrom), filterSubject: clean(filters.filterSubject), filterLabel: clean(filters.filterLabel) }
}

export function hasAnyFilter(filters: WizardDraft['filters']): boolean {
  return Object.values(toEmailFilters(filters)).some(Boolean)
}

export function toCreateParserInput(draft: WizardDraft, sampleId: string): CreateParserInput {
  return {
    name: draft.name.trim(),
    filters: toEmailFilters(draft.filters),
    fields: draft.fields,
    sample: { messageId: sampleId },
    parserType: draft.parserType,
    parseAttachments: draft.parserType === 'full_ai' && draft.parseAttachments,
    destination: draft.destination.type === 'new' ? { type: 'new' } : { type: 'existing', spreadsheet: draft.destination.spreadsheet.trim() },
    parseHistorical: draft.parseHistorical,
    rowMode: draft.rowMode,
  }
}
