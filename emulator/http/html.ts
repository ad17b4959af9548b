export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/** Server-rendered pages carry no script except where a nonce is passed, and load nothing remote. */
export function pageSecurityHeaders(nonce?: string): Record<string, string> {
  const script = nonce ? `'nonce-${nonce}'` : "'none'"
  return {
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src ${script}; form-action *; frame-src 'self'; base-uri 'none'`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  }
}

export function htmlPage(title: string, body: string, extraHead = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f1f1f; }
  body { margin: 0; background: #f8fafd; }
  main { max-width: 1100px; margin: 0 auto; padding: 24px; }
  header.bar { background: #fff; border-bottom: 1px solid #dadce0; padding: 12px 24px; display: flex; gap: 16px; align-items: center; }
  header.bar strong { font-size: 15px; }
  header.bar span { color: #5f6368; font-size: 13px; }
  a { color: #0b57d0; }
  h1 { font-size: 22px; font-weight: 500; }
  table { border-collapse: collapse; background: #fff; }
  th, td { border: 1px solid #e0e3e7; padding: 4px 8px; font-size: 13px; text-align: left; vertical-align: top; }
  th { background: #f1f3f4; font-weight: 500; color: #444746; }
  .card { background: #fff; border: 1px solid #dadce0; border-radius: 8px; padding: 24px; }
  .muted { color: #5f6368; font-size: 13px; }
  .error { color: #b3261e; }
  button { font: inherit; padding: 8px 20px; border-radius: 20px; border: 1px solid #747775; background: #fff; cursor: pointer; }
  button.primary { background: #0b57d0; color: #fff; border-color: #0b57d0; }
  pre { white-space: pre-wrap; word-break: break-word; background: #fff; border: 1px solid #e0e3e7; padding: 12px; border-radius: 6px; }
</style>
${extraHead}
</head>
<body>
<header class="bar"><strong>Google emulator</strong><span>Mailrow · local stand-in for Google OAuth, Gmail and Sheets</span></header>
<main>
${body}
</main>
</body>
</html>`
}
