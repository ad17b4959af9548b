import type { WizardDraft } from '../wizard-draft'

/** The filters in words, 'Any sender' / 'Any subject' / 'Any label' where blank (spec §2 step 2). */
export function FilterSummary({ filters }: { filters: WizardDraft['filters'] }) {
  const rows = [
    ['From', filters.filterFrom.trim() || 'Any sender'],
    ['Subject contains', filters.filterSubject.trim() || 'Any subject'],
    ['Label', filters.filterLabel.trim() || 'Any label'],
  ] as const
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-muted-foreground">{term}</dt>
          <dd className="break-words font-medium">{value}</dd>
        </div>
      ))}
    </dl>
  )
}
