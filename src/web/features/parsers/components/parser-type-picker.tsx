import { Check, Lock } from 'lucide-react'
import { toast } from 'sonner'
import { PARSER_TYPES, type ParserType, type Plan } from '@shared/plans'
import { Badge } from '@web/components/ui/badge'
import { SwitchField } from '@web/components/ui/field'
import { cn } from '@web/lib/utils'
import { chooseParserType, isParserTypeAvailable, PARSER_TYPE_INFO } from '../parser-types'
import { useUpgrade } from '../../billing/use-upgrade'
import type { DraftPatch } from '../wizard-draft'

/** 'Choose Parser Type' (spec §2 step 3, §4, §6): locked cards explain the upgrade instead. */
export function ParserTypePicker({
  plan,
  parserType,
  parseAttachments,
  onChange,
}: {
  plan: Plan
  parserType: ParserType
  parseAttachments: boolean
  onChange: (patch: DraftPatch) => void
}) {
  const { upgrade } = useUpgrade()

  const choose = (type: ParserType) => {
    const choice = chooseParserType(plan, type)
    if ('locked' in choice) {
      toast.error('Upgrade Required', {
        description: choice.locked,
        action: { label: 'Upgrade Now', onClick: () => upgrade(type === 'full_ai' ? 'pro' : 'starter') },
      })
      return
    }
    onChange(choice.patch)
  }

  return (
    <section aria-labelledby="parser-type-heading" className="grid gap-3">
      <div>
        <h3 id="parser-type-heading" className="font-semibold">
          Choose Parser Type
        </h3>
        <p className="text-sm text-muted-foreground">How Mailrow reads new emails once the parser is active.</p>
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        {PARSER_TYPES.map((type) => {
          const info = PARSER_TYPE_INFO[type]
          const isSelected = parserType === type
          const isLocked = !isParserTypeAvailable(plan, type)
          return (
            <button
              key={type}
              type="button"
              aria-pressed={isSelected}
              onClick={() => choose(type)}
              className={cn(
                'relative flex flex-col gap-2 rounded-lg border bg-background p-4 text-left transition-colors hover:border-primary/60 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2',
                isSelected && 'border-primary ring-1 ring-primary',
                isLocked && 'bg-muted/50',
              )}
            >
              <span className="flex items-center justify-between gap-2">
                <span className="flex items-center gap-1.5 font-semibold">
                  {isSelected && <Check className="size-4 text-primary" aria-hidden />}
                  {isLocked && <Lock className="size-3.5 text-muted-foreground" aria-hidden />}
                  {info.name}
                </span>
                <Badge variant={type === 'template' ? 'success' : 'secondary'}>{info.badge}</Badge>
              </span>
              <span className="text-sm text-muted-foreground">{info.description}</span>
              <span className="mt-auto text-xs font-medium">{info.cost}</span>
              {isLocked && <span className="sr-only">(locked: upgrade to use it)</span>}
            </button>
          )
        })}
      </div>
      {plan === 'pro' && (
        <SwitchField
          label="Parse PDF Attachments"
          hint={`${parserType === 'full_ai' ? 'Read values from PDF attachments too.' : 'Available with the Full AI Parser.'} Excel and CSV support coming soon.`}
          checked={parserType === 'full_ai' && parseAttachments}
          disabled={parserType !== 'full_ai'}
          onCheckedChange={(checked) => onChange({ parseAttachments: checked })}
        />
      )}
    </section>
  )
}
