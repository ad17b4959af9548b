import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/** Import directions (ARCHITECTURE.md): each layer may reach only what is listed for it. */
const boundaries = {
  web: {
    files: ['src/web/**/*.{ts,tsx}'],
    forbidden: ['**/server/**', '**/worker/**', '**/engine/**', '**/emulator/**'],
    message: 'The web app talks to the server over HTTP; the only server import allowed is `import type { AppType }`.',
  },
  server: {
    files: ['src/server/**/*.ts'],
    // main.ts is the composition root: in demo mode it starts the emulator beside the app.
    // Tests use the emulator as Google (the network edge).
    ignores: ['src/server/main.ts', 'src/server/testing/**', 'src/**/*.test.ts'],
    forbidden: ['**/web/**', '**/emulator/**'],
    message: 'Server code never imports the web app or the Google emulator.',
  },
  shared: {
    files: ['src/shared/**/*.ts'],
    forbidden: ['**/server/**', '**/web/**', '**/worker/**', '**/engine/**', 'node:*', 'react', 'react-dom'],
    message: 'src/shared is isomorphic: no server, web, Node or DOM imports.',
  },
  engine: {
    files: ['src/engine/**/*.ts'],
    forbidden: ['**/server/**', '**/web/**', '**/worker/**'],
    message: 'The extraction engine imports only src/shared.',
  },
}

/** The same layers through their path aliases (path-aliases.ts): `@server/…` is `src/server/…`. */
for (const layer of Object.values(boundaries)) {
  layer.forbidden = layer.forbidden.flatMap((pattern) => {
    const dir = /^\*\*\/(\w+)\/\*\*$/.exec(pattern)?.[1]
    return dir ? [pattern, `@${dir}/**`] : [pattern]
  })
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.tmp/**', '.scratch/**', 'src/server/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      'no-restricted-syntax': ['error', { selector: 'TSEnumDeclaration', message: 'Use a string union instead of an enum.' }],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // Only the env module reads process.env in application code.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/server/main.ts', 'src/server/admin-cli.ts', 'src/worker/main.ts', 'src/server/testing/**', 'src/**/*.test.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through src/server/env.ts.' }],
    },
  },
  ...Object.values(boundaries).map(({ files, ignores, forbidden, message }) => ({
    files,
    ...(ignores ? { ignores } : {}),
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [{ group: forbidden, message, allowTypeImports: files[0].startsWith('src/web') }],
        },
      ],
    },
  })),
  // The web app may import exactly one server type: the RPC contract.
  {
    files: ['src/web/**/*.{ts,tsx}'],
    ignores: ['src/web/lib/api-client.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: boundaries.web.forbidden, message: boundaries.web.message }] },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'tests/**/*.ts', 'src/server/testing/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
)
