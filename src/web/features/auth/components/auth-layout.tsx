import type { ReactNode } from 'react'
import { Logo } from '@web/components/layout/logo'
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@web/components/ui/card'

type AuthLayoutProps = {
  title: string
  description?: string
  children: ReactNode
  footer?: ReactNode
}

/** The centred card every signed-out form sits in (sign-in, sign-up, 2FA, password reset). */
export function AuthLayout({ title, description, children, footer }: AuthLayoutProps) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-muted px-4 py-12">
      <div className="mb-8">
        <Logo />
      </div>
      <Card className="w-full max-w-md">
        <CardHeader className="text-center">
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </CardHeader>
        <CardContent>{children}</CardContent>
        {footer ? (
          <CardFooter className="flex-col gap-2 text-center text-sm text-muted-foreground">{footer}</CardFooter>
        ) : null}
      </Card>
    </main>
  )
}
