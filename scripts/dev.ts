import { spawn, type ChildProcess } from 'node:child_process'

/**
 * `npm run dev`: the API (reloading on change) on API_PORT and Vite (hot module reload) on PORT,
 * which proxies /api to it, so the browser sees one origin at http://localhost:PORT.
 */
const port = process.env.PORT ?? '3000'
const apiPort = process.env.API_PORT ?? '3001'
const env = { ...process.env, API_PORT: apiPort, APP_URL: process.env.APP_URL ?? `http://localhost:${port}` }

const children: ChildProcess[] = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'src/server/main.ts'], {
    stdio: 'inherit',
    env: { ...env, PORT: apiPort },
  }),
  spawn('npx', ['vite'], { stdio: 'inherit', env: { ...env, PORT: port } }),
]

const stop = () => {
  for (const child of children) child.kill('SIGTERM')
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
for (const child of children) child.on('exit', (code) => code && code !== 0 && stop())
