import { z } from 'zod'

// zod compiles fast object parsers with `new Function`, probing for it first; our CSP has no
// 'unsafe-eval', so the probe alone filed a CSP violation report on every page. Parse without it.
z.config({ jitless: true })
