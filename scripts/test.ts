import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'

/**
 * `npm test`: unit and integration tests, then a fresh build of the web app, then the browser
 * stories in Debian's Chromium (installed here with apt-get when missing and we are root).
 */
const root = new URL('..', import.meta.url).pathname
const reports = join(root, '.tmp')
mkdirSync(reports, { recursive: true })

function run(command: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
  return result.status ?? 1
}

function ensureChromium(): string | undefined {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (existsSync(path)) return path
  if (process.getuid?.() === 0) {
    console.log('Chromium is missing: installing Debian\'s chromium with apt-get...')
    if (run('apt-get', ['update', '-qq']) === 0 && run('apt-get', ['install', '-y', '-qq', 'chromium']) === 0 && existsSync(path)) {
      return path
    }
  }
  console.error('\nThe browser tests need Chromium. Install it with:\n\n  sudo apt-get install -y chromium\n')
  return undefined
}

type Counts = { passed: number; failed: number; skipped: number }
function readCounts(file: string): Counts {
  try {
    const report = JSON.parse(readFileSync(file, 'utf8')) as {
      numPassedTests: number
      numFailedTests: number
      numFailedTestSuites: number
      numPendingTests: number
      numTodoTests: number
    }
    // A file that fails to load has no failed test of its own; count that as one failure.
    const failed = report.numFailedTests || (report.numFailedTestSuites > 0 ? 1 : 0)
    return { passed: report.numPassedTests, failed, skipped: report.numPendingTests + report.numTodoTests }
  } catch {
    return { passed: 0, failed: 1, skipped: 0 }
  }
}

const vitestArgs = (file: string) => ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`]

const unitReport = join(reports, 'unit.json')
rmSync(unitReport, { force: true })
const unitStatus = run('npx', vitestArgs(unitReport))
const unit = readCounts(unitReport)
if (unitStatus !== 0 && unit.failed === 0) unit.failed = 1

function runBrowserStories(): { status: number; counts: Counts } {
  const failed = { status: 1, counts: { passed: 0, failed: 1, skipped: 0 } }
  const chromium = ensureChromium()
  if (!chromium) return failed
  if (run('npx', ['vite', 'build', '--logLevel', 'warn']) !== 0) return failed
  const e2eReport = join(reports, 'e2e.json')
  rmSync(e2eReport, { force: true })
  const status = run('npx', [...vitestArgs(e2eReport), '--config', 'vitest.e2e.config.ts'], { CHROMIUM_PATH: chromium })
  const counts = readCounts(e2eReport)
  // A failed global set-up (the server did not start) runs no test at all.
  if (status !== 0 && counts.failed === 0) counts.failed = 1
  return { status, counts }
}

const { status: browserStatus, counts: browser } = runBrowserStories()

const total = { passed: unit.passed + browser.passed, failed: unit.failed + browser.failed }
console.log(`\nunit and integration: ${unit.passed} passed, ${unit.failed} failed`)
console.log(`browser: ${browser.passed} passed, ${browser.failed} failed`)
console.log(`${total.passed} passed, ${total.failed} failed`)
process.exit(unitStatus !== 0 || browserStatus !== 0 || total.failed > 0 ? 1 : 0)
