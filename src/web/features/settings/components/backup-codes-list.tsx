import { CopyButton } from './copy-button'

/** Freshly issued backup codes: shown once, each usable once to sign in without the app. */
export function BackupCodesList({ codes }: { codes: string[] }) {
  return (
    <div className="flex flex-col items-start gap-3">
      <ul
        data-testid="backup-codes"
        aria-label="Backup codes"
        className="grid w-full grid-cols-2 gap-x-6 gap-y-1 rounded-md border bg-muted/40 p-4 font-mono text-sm select-all"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <CopyButton text={codes.join('\n')} label="Copy backup codes" copiedMessage="Backup codes copied" />
    </div>
  )
}
