import { PLAN_INFO, type Plan } from '../../../../shared/plans'
import { Button } from '../../../components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog'
import { CopyButton } from './copy-button'
import { formatMonthlyPrice } from './format'
import { useReturnFocus } from '../../../components/ui/use-return-focus'

type UpgradeDialogProps = {
  /** The plan asked for; null keeps the dialog closed. */
  plan: Plan | null
  email: string
  onOpenChange: (open: boolean) => void
}

/** Until billing exists, an operator switches plans with the CLI; this says so to the user. */
export function UpgradeDialog({ plan, email, onOpenChange }: UpgradeDialogProps) {
  const returnFocus = useReturnFocus()
  const info = plan ? PLAN_INFO[plan] : null
  const command = plan ? `npm run mailrow -- set-plan ${email} ${plan}` : ''
  return (
    <Dialog open={plan !== null} onOpenChange={onOpenChange}>
      <DialogContent className="w-[calc(100%-1rem)]" {...returnFocus}>
        {info ? (
          <>
            <DialogHeader className="pr-6">
              <DialogTitle>Upgrade to {info.name}</DialogTitle>
              <DialogDescription>
                {info.name} is {formatMonthlyPrice(info.priceMonthly)}. Online payment isn't available yet: contact your Mailrow administrator to upgrade.
              </DialogDescription>
            </DialogHeader>
            <div className="flex flex-col gap-2 text-sm">
              <p className="text-muted-foreground">Running Mailrow yourself? Switch this account's plan from the server with:</p>
              <code className="block rounded-md border bg-muted px-3 py-2 font-mono text-xs wrap-anywhere">{command}</code>
              <div>
                <CopyButton text={command} label="Copy command" copiedMessage="Command copied" />
              </div>
            </div>
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline">Close</Button>
              </DialogClose>
            </DialogFooter>
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  )
}
