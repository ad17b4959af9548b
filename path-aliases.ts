import { fileURLToPath } from 'node:url'

/**
 * The import aliases, in one place: `@shared/contracts/api` instead of `../../../shared/contracts/api`.
 * tsconfig.json's `paths` say the same for TypeScript and for tsx (which runs the server, the
 * worker and the scripts); Vite and Vitest read this map.
 */
export const PATH_ALIASES: Record<string, string> = Object.fromEntries(
  Object.entries({
    '@shared': 'src/shared',
    '@server': 'src/server',
    '@web': 'src/web',
    '@engine': 'src/engine',
    '@worker': 'src/worker',
    '@emulator': 'emulator',
  }).map(([alias, dir]) => [alias, fileURLToPath(new URL(`./${dir}`, import.meta.url))]),
)
