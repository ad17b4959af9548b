import { Copy } from 'lucide-react'
import { toast } from 'sonner'
import { Button } from '@web/components/ui/button'

type CopyButtonProps = { text: string; label: string; copiedMessage: string }

export function CopyButton({ text, label, copiedMessage }: CopyButtonProps) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(text)
      toast.success(copiedMessage)
    } catch {
      // The clipboard API needs a secure context and permission; selecting by hand always works.
      toast.error('Could not copy', { description: 'Select the text and copy it by hand.' })
    }
  }
  return (
    <Button type="button" variant="outline" size="sm" onClick={() => void copy()}>
      <Copy aria-hidden />
      {label}
    </Button>
  )
}
