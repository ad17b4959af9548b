const auth = 'https://www.googleapis.com/auth'

export const SCOPES = {
  openid: 'openid',
  email: `${auth}/userinfo.email`,
  profile: `${auth}/userinfo.profile`,
  gmailReadonly: `${auth}/gmail.readonly`,
  gmailMetadata: `${auth}/gmail.metadata`,
  gmailModify: `${auth}/gmail.modify`,
  gmailFull: 'https://mail.google.com/',
  spreadsheets: `${auth}/spreadsheets`,
  spreadsheetsReadonly: `${auth}/spreadsheets.readonly`,
  driveFile: `${auth}/drive.file`,
  drive: `${auth}/drive`,
  driveReadonly: `${auth}/drive.readonly`,
} as const

const descriptions: Record<string, string> = {
  [SCOPES.openid]: 'Associate you with your personal info on Google',
  [SCOPES.email]: 'See your primary Google Account email address',
  [SCOPES.profile]: "See your personal info, including any personal info you've made publicly available",
  [SCOPES.gmailReadonly]: 'View your email messages and settings',
  [SCOPES.gmailMetadata]: 'View your email message metadata such as labels and headers, but not the email body',
  [SCOPES.gmailModify]: 'Read, compose, and send emails from your Gmail account',
  [SCOPES.gmailFull]: 'Read, compose, send, and permanently delete all your email from Gmail',
  [SCOPES.spreadsheets]: 'See, edit, create, and delete all your Google Sheets spreadsheets',
  [SCOPES.spreadsheetsReadonly]: 'See all your Google Sheets spreadsheets',
  [SCOPES.driveFile]: 'See, edit, create, and delete only the specific Google Drive files you use with this app',
  [SCOPES.drive]: 'See, edit, create, and delete all of your Google Drive files',
  [SCOPES.driveReadonly]: 'See and download all your Google Drive files',
}

export function describeScope(scope: string): string {
  return descriptions[scope] ?? scope
}

export function isKnownScope(scope: string): boolean {
  return scope in descriptions
}

/** Google answers `email` and `profile` with their full URLs in the granted `scope` string. */
export function normalizeScopes(input: string): string[] {
  const out: string[] = []
  for (const raw of input.split(/[\s+]+/)) {
    if (!raw) continue
    const scope = raw === 'email' ? SCOPES.email : raw === 'profile' ? SCOPES.profile : raw
    if (!out.includes(scope)) out.push(scope)
  }
  return out
}

/** Which granted scopes let a token call each family of methods (Google's documented alternatives). */
export const SCOPE_REQUIREMENTS = {
  gmailRead: [SCOPES.gmailReadonly, SCOPES.gmailModify, SCOPES.gmailFull, SCOPES.gmailMetadata],
  gmailFullContent: [SCOPES.gmailReadonly, SCOPES.gmailModify, SCOPES.gmailFull],
  gmailWatch: [SCOPES.gmailReadonly, SCOPES.gmailModify, SCOPES.gmailFull, SCOPES.gmailMetadata],
  sheetsRead: [SCOPES.spreadsheets, SCOPES.spreadsheetsReadonly, SCOPES.drive, SCOPES.driveReadonly, SCOPES.driveFile],
  sheetsWrite: [SCOPES.spreadsheets, SCOPES.drive, SCOPES.driveFile],
  userinfo: [SCOPES.openid, SCOPES.email, SCOPES.profile],
} as const
