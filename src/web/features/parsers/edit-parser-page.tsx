import { ArrowDown, ArrowLeft, ArrowUp, Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { toast } from 'sonner'
import type { FieldType } from '@shared/contracts/extraction'
import {
  CUSTOM_FIELD_KINDS,
  CUSTOM_FIELD_LABELS,
  editParserInputSchema,
  STARTER_MESSAGES,
  type CustomField,
  type CustomFieldKind,
  type EditParserInput,
} from '@shared/contracts/parser-edit'
import type { ParserView } from '@shared/contracts/parsers'
import { parserPath, paths } from '@shared/paths'
import { AppHeader } from '../../components/layout/app-header'
import { Button } from '../../components/ui/button'
import { usePageTitle } from '../../lib/document-title'
import { Field } from '../../components/ui/field'
import { Input } from '../../components/ui/input'
import { Spinner } from '../../components/ui/spinner'
import { useAccount } from '../settings/api/get-account'
import { useEditParser, useParser } from './api/parser-pages'
import { FieldTypeSelect } from './components/selected-fields-panel'

/** Editing a parser (issue 12 item 3): name, filters, fields, custom fields and the spreadsheet. */
export function EditParserPage() {
  const { parserId = '' } = useParams()
  const parser = useParser(parserId)
  usePageTitle(parser.data?.name)
  const account = useAccount()
  return (
    <div className="min-h-screen bg-muted/40">
      <AppHeader />
      <main className="mx-auto grid max-w-3xl grid-cols-1 gap-6 px-4 py-8">
        <Link to={parser.data ? parserPath(parserId) : paths.parsers} className="flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
          <ArrowLeft className="size-4" aria-hidden />
          {parser.data ? `Back to ${parser.data.name}` : 'All parsers'}
        </Link>
        {parser.isPending || account.isPending ? (
          <div className="flex min-h-56 items-center justify-center">
            <Spinner label="Loading parser" />
          </div>
        ) : parser.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {parser.error.message || 'Could not load the parser.'}
          </p>
        ) : (
          <EditForm parser={parser.data} isStarter={(account.data?.plan ?? 'free') !== 'free'} />
        )}
      </main>
    </div>
  )
}

type FieldRow = { key: string; name: string; previousName: string; type: FieldType }

function EditForm({ parser, isStarter }: { parser: ParserView; isStarter: boolean }) {
  const navigate = useNavigate()
  const edit = useEditParser(parser.id)
  const [name, setName] = useState(parser.name)
  const [filters, setFilters] = useState({ filterFrom: parser.filter_from ?? '', filterSubject: parser.filter_subject ?? '', filterLabel: parser.filter_label ?? '' })
  const advanced = parser.advanced_filters
  const [adv, setAdv] = useState({
    senderDomain: advanced?.senderDomain ?? '',
    bodyContains: advanced?.bodyContains ?? '',
    excludeWords: advanced?.excludeWords.join(', ') ?? '',
    hasAttachment: advanced?.hasAttachment ?? false,
    gmailQuery: advanced?.gmailQuery ?? '',
  })
  const [fields, setFields] = useState<FieldRow[]>(() => parser.extraction_fields.map((f) => ({ key: f.name, name: f.name, previousName: f.name, type: f.type })))
  const [customFields, setCustomFields] = useState<CustomField[]>(parser.custom_fields)
  const [spreadsheet, setSpreadsheet] = useState(parser.destination_config?.spreadsheetUrl ?? '')
  const [error, setError] = useState<string | null>(null)

  const move = (index: number, by: -1 | 1) =>
    setFields((rows) => {
      const next = [...rows]
      const [row] = next.splice(index, 1)
      next.splice(index + by, 0, row!)
      return next
    })

  const input = (): EditParserInput => ({
    name,
    filters,
    advancedFilters: isStarter
      ? {
          senderDomain: adv.senderDomain,
          bodyContains: adv.bodyContains,
          excludeWords: adv.excludeWords.split(',').map((w) => w.trim()).filter(Boolean),
          hasAttachment: adv.hasAttachment,
          gmailQuery: adv.gmailQuery,
        }
      : null,
    fields: fields.map(({ name: fieldName, previousName, type }) => ({ name: fieldName, previousName, type })),
    customFields: isStarter ? customFields : [],
    spreadsheet: spreadsheet.trim() === (parser.destination_config?.spreadsheetUrl ?? '') ? null : spreadsheet,
  })

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault()
    const checked = editParserInputSchema.safeParse(input())
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'Please check the form.')
      return
    }
    setError(null)
    edit.mutate(input(), {
      onSuccess: (saved) => {
        toast.success('Parser saved', { description: saved.name })
        navigate(parserPath(parser.id))
      },
      onError: (e) => setError(e.message || 'Could not save the parser. Please try again.'),
    })
  }

  return (
    <form className="grid gap-6" onSubmit={onSubmit} noValidate>
      <h1 className="text-3xl font-bold tracking-tight">Edit {parser.name}</h1>

      <Field label="Parser name" className="rounded-lg border bg-background p-4">
        {(control) => <Input {...control} value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />}
      </Field>

      <fieldset className="grid gap-3 rounded-lg border bg-background p-4">
        <legend className="px-1 font-semibold">Filters</legend>
        {(['filterFrom', 'filterSubject', 'filterLabel'] as const).map((key) => (
          <Field key={key} label={{ filterFrom: 'From', filterSubject: 'Subject contains', filterLabel: 'Label' }[key]} className="gap-1">
            {(control) => <Input {...control} value={filters[key]} onChange={(e) => setFilters((f) => ({ ...f, [key]: e.target.value }))} maxLength={500} />}
          </Field>
        ))}
      </fieldset>

      <fieldset className="grid gap-3 rounded-lg border bg-background p-4" disabled={!isStarter}>
        <legend className="px-1 font-semibold">Advanced filters</legend>
        {!isStarter && <p className="text-sm text-muted-foreground">{STARTER_MESSAGES.advancedFilters}</p>}
        {(
          [
            ['senderDomain', 'Sender domain', 'shop.com'],
            ['bodyContains', 'Body contains', ''],
            ['excludeWords', 'Exclude emails with these words (comma-separated)', 'refund, cancelled'],
            ['gmailQuery', 'Gmail search', 'has:attachment -in:chats'],
          ] as const
        ).map(([key, label, placeholder]) => (
          <Field key={key} label={label} className="gap-1">
            {(control) => <Input {...control} value={adv[key]} placeholder={placeholder} onChange={(e) => setAdv((a) => ({ ...a, [key]: e.target.value }))} maxLength={500} />}
          </Field>
        ))}
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="size-4" checked={adv.hasAttachment} onChange={(e) => setAdv((a) => ({ ...a, hasAttachment: e.target.checked }))} />
          Only emails with an attachment
        </label>
      </fieldset>

      <fieldset className="grid gap-3 rounded-lg border bg-background p-4">
        <legend className="px-1 font-semibold">Fields</legend>
        <p className="text-sm text-muted-foreground">
          Renaming a field renames its column; a removed field keeps its column in the sheet, no longer filled. To add a field, open one of the
          parser&apos;s emails, choose <span className="font-medium text-foreground">Train on this email</span> and highlight the new value: it becomes a new
          column at the end of the sheet.
        </p>
        <ol className="grid gap-2">
          {fields.map((field, index) => (
            <li key={field.key} className="flex flex-wrap items-end gap-2 rounded-md border p-2" data-testid="edit-field">
              <Field label={`Field ${index + 1} name`} className="min-w-40 flex-1 gap-1">
                {(control) => (
                  <Input
                    {...control}
                    value={field.name}
                    maxLength={200}
                    onChange={(e) => setFields((rows) => rows.map((r) => (r.key === field.key ? { ...r, name: e.target.value } : r)))}
                  />
                )}
              </Field>
              <FieldTypeSelect
                name={field.name || `field ${index + 1}`}
                value={field.type}
                onChange={(type) => setFields((rows) => rows.map((r) => (r.key === field.key ? { ...r, type } : r)))}
                className="h-10"
              />
              <div className="flex gap-1">
                <Button type="button" variant="ghost" size="icon" aria-label={`Move ${field.name} up`} disabled={index === 0} onClick={() => move(index, -1)}>
                  <ArrowUp />
                </Button>
                <Button type="button" variant="ghost" size="icon" aria-label={`Move ${field.name} down`} disabled={index === fields.length - 1} onClick={() => move(index, 1)}>
                  <ArrowDown />
                </Button>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove ${field.name}`}
                  disabled={fields.length === 1}
                  onClick={() => setFields((rows) => rows.filter((r) => r.key !== field.key))}
                >
                  <Trash2 />
                </Button>
              </div>
            </li>
          ))}
        </ol>
      </fieldset>

      <fieldset className="grid gap-3 rounded-lg border bg-background p-4" disabled={!isStarter}>
        <legend className="px-1 font-semibold">Custom fields</legend>
        <p className="text-sm text-muted-foreground">
          {isStarter
            ? 'Columns filled for every email: its metadata, a fixed value, or a value computed from the fields, e.g. [Unit Price] * Qty or First & " " & Last.'
            : STARTER_MESSAGES.customFields}
        </p>
        <ol className="grid gap-2">
          {customFields.map((custom, index) => (
            <CustomFieldRow
              key={index}
              index={index}
              custom={custom}
              onChange={(next) => setCustomFields((list) => list.map((c, i) => (i === index ? next : c)))}
              onRemove={() => setCustomFields((list) => list.filter((_, i) => i !== index))}
            />
          ))}
        </ol>
        <Button type="button" variant="outline" className="w-fit" onClick={() => setCustomFields((list) => [...list, { kind: 'fixed', name: '', value: '' }])}>
          <Plus aria-hidden />
          Add custom field
        </Button>
      </fieldset>

      <Field
        label="Spreadsheet (ID or URL)"
        hint="Another spreadsheet here: new rows go there from now on; the rows already written stay where they are."
        className="rounded-lg border bg-background p-4"
      >
        {(control) => <Input {...control} value={spreadsheet} onChange={(e) => setSpreadsheet(e.target.value)} maxLength={2000} />}
      </Field>

      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" asChild>
          <Link to={parserPath(parser.id)}>Cancel</Link>
        </Button>
        <Button type="submit" disabled={edit.isPending}>
          {edit.isPending ? 'Saving...' : 'Save changes'}
        </Button>
      </div>
    </form>
  )
}

function CustomFieldRow({ index, custom, onChange, onRemove }: { index: number; custom: CustomField; onChange: (c: CustomField) => void; onRemove: () => void }) {
  const setKind = (kind: CustomFieldKind) => {
    if (kind === 'fixed') onChange({ kind, name: custom.name, value: '' })
    else if (kind === 'computed') onChange({ kind, name: custom.name, expression: '' })
    else onChange({ kind, name: custom.name || CUSTOM_FIELD_LABELS[kind] })
  }
  return (
    <li className="flex flex-wrap items-end gap-2 rounded-md border p-2" data-testid="custom-field">
      <Field label={`Custom field ${index + 1} kind`} className="gap-1">
        {(control) => (
          <select {...control} className="h-10 rounded-md border bg-background px-2 text-sm" value={custom.kind} onChange={(e) => setKind(e.target.value as CustomFieldKind)}>
            {CUSTOM_FIELD_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {CUSTOM_FIELD_LABELS[kind]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={`Custom field ${index + 1} name`} className="min-w-32 flex-1 gap-1">
        {(control) => <Input {...control} value={custom.name} maxLength={200} onChange={(e) => onChange({ ...custom, name: e.target.value })} />}
      </Field>
      {custom.kind === 'fixed' && (
        <Field label={`Custom field ${index + 1} value`} className="min-w-32 flex-1 gap-1">
          {(control) => <Input {...control} value={custom.value} maxLength={1000} onChange={(e) => onChange({ ...custom, value: e.target.value })} />}
        </Field>
      )}
      {custom.kind === 'computed' && (
        <Field label={`Custom field ${index + 1} expression`} className="min-w-48 flex-1 gap-1">
          {(control) => <Input {...control} value={custom.expression} maxLength={500} onChange={(e) => onChange({ ...custom, expression: e.target.value })} />}
        </Field>
      )}
      <Button type="button" variant="ghost" size="icon" aria-label={`Remove custom field ${custom.name || index + 1}`} onClick={onRemove}>
        <Trash2 />
      </Button>
    </li>
  )
}
