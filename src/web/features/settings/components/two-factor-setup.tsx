import { zodResolver } from '@hookform/resolvers/zod'
import { QRCodeSVG } from 'qrcode.react'
import { useForm } from 'react-hook-form'
import { toast } from 'sonner'
import { totpCodeSchema } from '@shared/contracts/auth'
import { Button } from '@web/components/ui/button'
import { Field } from '@web/components/ui/field'
import { Input } from '@web/components/ui/input'
import { errorMessage } from '../api/auth-data'
import { useConfirmTwoFactor } from '../api/confirm-two-factor'
import { BackupCodesList } from './backup-codes-list'
import { CopyButton } from './copy-button'

type TwoFactorSetupProps = {
  totpURI: string
  backupCodes: string[]
  onEnabled: () => void
  onCancel: () => void
}

/** Scan, save the backup codes, confirm one code: only then is two-factor on. */
export function TwoFactorSetup({ totpURI, backupCodes, onEnabled, onCancel }: TwoFactorSetupProps) {
  const secret = secretOf(totpURI)
  const confirmTwoFactor = useConfirmTwoFactor()
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(totpCodeSchema), defaultValues: { code: '' } })

  async function verify({ code }: { code: string }) {
    try {
      await confirmTwoFactor.mutateAsync({ code })
    } catch (error) {
      toast.error('Verification failed', { description: errorMessage(error, 'Invalid code') })
      return
    }
    toast.success('Two-factor authentication enabled')
    onEnabled()
  }

  return (
    <ol className="flex flex-col gap-6 rounded-lg border p-4">
      <li className="flex flex-col gap-3">
        <h4 className="font-medium">1. Scan this QR code with your authenticator app</h4>
        <div className="flex flex-wrap items-start gap-6">
          <div className="rounded-md border bg-white p-3">
            <QRCodeSVG value={totpURI} size={168} marginSize={0} title="QR code for your authenticator app" />
          </div>
          {/* At least 12rem wide, so on a phone it wraps under the QR code instead of squeezing its buttons past the screen's edge. */}
          <div className="flex min-w-48 flex-1 flex-col items-start gap-2">
            <p className="text-sm text-muted-foreground">Can't scan it? Enter this key in the app instead.</p>
            <span id="totp-secret-label" className="text-sm font-medium">
              Secret key
            </span>
            <code
              role="textbox"
              aria-readonly="true"
              aria-labelledby="totp-secret-label"
              tabIndex={0}
              data-testid="totp-secret"
              className="w-full rounded-md border bg-muted/40 px-3 py-2 font-mono text-sm break-all select-all"
            >
              {/* Groups of four are easier to copy by hand; the key is base32 (A-Z, 2-7: no 0/O or 1/I/l to confuse). */}
              {secret.match(/.{1,4}/g)?.join(' ') ?? secret}
            </code>
            <CopyButton text={secret} label="Copy secret key" copiedMessage="Secret key copied" />
          </div>
        </div>
      </li>
      <li className="flex flex-col gap-3">
        <h4 className="font-medium">2. Save your backup codes</h4>
        <p className="text-sm text-muted-foreground">
          Each code signs you in once if you lose your phone. Keep them somewhere safe: they are shown only now.
        </p>
        <BackupCodesList codes={backupCodes} />
      </li>
      <li className="flex flex-col gap-3">
        <h4 className="font-medium">3. Enter the code the app shows</h4>
        <form onSubmit={handleSubmit(verify)} noValidate className="flex flex-col gap-3">
          <Field label="Verification code" error={errors.code?.message} className="max-w-xs">
            {(control) => (
              <Input {...control} autoComplete="one-time-code" inputMode="numeric" placeholder="123456" className="font-mono tracking-widest" {...register('code')} />
            )}
          </Field>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? 'Verifying...' : 'Verify and enable'}
            </Button>
            <Button type="button" variant="ghost" onClick={onCancel} disabled={isSubmitting}>
              Cancel
            </Button>
          </div>
        </form>
      </li>
    </ol>
  )
}

function secretOf(totpURI: string): string {
  try {
    return new URL(totpURI).searchParams.get('secret') ?? ''
  } catch {
    return ''
  }
}
