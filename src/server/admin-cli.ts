import { openDatabase } from './db/client'
import { parseEnv } from './env'
import { adminToken, setUserPlan } from './features/admin/admin.service'
import { loadDotEnv } from './load-dotenv'
import { resolveAppSecret } from './secret'
import { PLANS, type Plan } from '../shared/plans'

/**
 * `npm run mailrow -- set-plan EMAIL PLAN`: through the running server when there is one (an
 * embedded database belongs to one process), else straight to the database.
 */
export async function runAdminCommand(args: string[]): Promise<number> {
  const [command, email, plan] = args
  if (command !== 'set-plan' || !email || !PLANS.includes(plan as Plan)) {
    process.stderr.write(`mailrow: usage: set-plan EMAIL ${PLANS.join('|')}\n`)
    return 2
  }
  loadDotEnv()
  const env = parseEnv(process.env)
  const secret = resolveAppSecret(env.APP_SECRET, env.DATA_DIR)
  try {
    const response = await fetch(`${env.APP_URL}/api/admin/plan`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken(secret)}` },
      body: JSON.stringify({ email, plan }),
    })
    const body = (await response.json()) as { user?: { email: string; plan: string }; error?: { message: string } }
    if (!response.ok) {
      process.stderr.write(`mailrow: ${body.error?.message ?? response.statusText}\n`)
      return 1
    }
    process.stdout.write(`${body.user!.email} is now on the ${body.user!.plan} plan\n`)
    return 0
  } catch {
    // No server answering: the database is ours to open.
  }
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR })
  try {
    await database.migrate()
    const user = await setUserPlan(database.db, { email, plan: plan as Plan })
    process.stdout.write(`${user.email} is now on the ${user.plan} plan\n`)
    return 0
  } catch (error) {
    process.stderr.write(`mailrow: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  } finally {
    await database.close()
  }
}
