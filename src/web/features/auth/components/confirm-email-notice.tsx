import { MailCheck } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { toast } from 'sonner'
import { paths } from '@shared/paths'
import { Button } from '@web/components/ui/button'
import { authClient, authErrorMessage } from '@web/lib/auth-client'
import { usePublicConfig } from '../../config/use-public-config'

/** After sign-up, or a sign-in to an unconfirmed account: where the link is, and a way to resend it. */
export function ConfirmEmailNotice({ email }: { email: string }) {
  const { data: config } = usePublicConfig()
  const [isSending, setIsSending] = useState(false)

  async function resend() {
    setIsSending(true)
    const { error } = await authClient.sendVerificationEmail({ email, callbackURL: paths.dashboard })
    setIsSending(false)
    if (error) {
      toast.error('Could not send the link', { description: authErrorMessage(error, 'Please try again in a moment.') })
      return
    }
    toast.success('Confirmation link sent', { description: `Check the inbox of ${email}.` })
  }

  return (
    <div role="status" className="flex flex-col gap-2 rounded-md border bg-muted/40 p-3 text-sm">
      <p className="flex items-center gap-2 font-medium">
        <MailCheck className="size-4 text-primary" aria-hidden />
        Confirm your email address
      </p>
      <p className="text-muted-foreground">
        We sent a confirmation link to <span className="font-medium text-foreground">{email}</span>. Open it to finish
        creating your account; it signs you in.
      </p>
      {config && !config.canSendMail ? (
        <p className="text-destructive">This server cannot send email. Ask the person who runs it to set up outgoing mail.</p>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="outline" size="sm" onClick={() => void resend()} disabled={isSending}>
          {isSending ? 'Sending...' : 'Resend confirmation email'}
        </Button>
        {config?.devOutbox ? (
          <Link to={paths.devOutbox} className="font-medium text-primary hover:underline">
            Open the development outbox
          </Link>
        ) : null}
      </div>
    </div>
  )
}
