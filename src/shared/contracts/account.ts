import type { Plan } from '../plans'

/** What /settings shows about the signed-in user. */
export type AccountView = {
  id: string
  email: string
  name: string
  plan: Plan
  twoFactorEnabled: boolean
  hasPassword: boolean
  signInMethods: string[]
  createdAt: string
}

/** Public facts the front end needs before sign-in. */
export type PublicConfig = {
  googleSignIn: boolean
  demoMode: boolean
  devOutbox: boolean
}
