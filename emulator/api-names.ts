import { sheetsApiName } from './sheets/sheets-routes'

const GMAIL: [string, RegExp, string][] = [
  ['GET', /^\/gmail\/v1\/users\/[^/]+\/profile$/, 'gmail.users.getProfile'],
  ['GET', /^\/gmail\/v1\/users\/[^/]+\/labels$/, 'gmail.users.labels.list'],
  ['GET', /^\/gmail\/v1\/users\/[^/]+\/labels\/[^/]+$/, 'gmail.users.labels.get'],
  ['GET', /^\/gmail\/v1\/users\/[^/]+\/messages$/, 'gmail.users.messages.list'],
  ['GET', /^\/gmail\/v1\/users\/[^/]+\/messages\/[^/]+$/, 'gmail.users.messages.get'],
  ['GET', /^\/gmail\/v1\/users\/[^/]+\/messages\/[^/]+\/attachments\/[^/]+$/, 'gmail.users.messages.attachments.get'],
  ['GET', /^\/gmail\/v1\/users\/[^/]+\/history$/, 'gmail.users.history.list'],
  ['POST', /^\/gmail\/v1\/users\/[^/]+\/watch$/, 'gmail.users.watch'],
  ['POST', /^\/gmail\/v1\/users\/[^/]+\/stop$/, 'gmail.users.stop'],
  ['GET', /^\/o\/oauth2(\/v2)?\/auth$/, 'oauth2.authorize'],
  ['POST', /^\/o\/oauth2\/v2\/auth\/consent$/, 'oauth2.consent'],
  ['POST', /^\/(token|o\/oauth2\/token|oauth2\/v4\/token)$/, 'oauth2.token'],
  ['*', /^\/(revoke|o\/oauth2\/revoke)$/, 'oauth2.revoke'],
  ['*', /^\/(tokeninfo|oauth2\/v3\/tokeninfo)$/, 'oauth2.tokeninfo'],
  ['GET', /^\/(oauth2\/v[23]\/userinfo|v1\/userinfo|userinfo\/v2\/me|openidconnect\/v1\/userinfo)$/, 'oauth2.userinfo'],
]

/** Names a request by the Google method it calls, even when a fault answered before any route ran. */
export function apiNameFor(method: string, rawPathname: string): string | undefined {
  if (rawPathname.startsWith('/v4/spreadsheets')) return sheetsApiName(method, rawPathname)
  return GMAIL.find(([verb, pattern]) => (verb === '*' || verb === method) && pattern.test(rawPathname))?.[2]
}
