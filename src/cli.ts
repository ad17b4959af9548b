/**
 * The `mailrow` command: operator commands (set-plan) go to the server side; everything else
 * (extract) is the extraction engine's CLI.
 */
const [command] = process.argv.slice(2)
if (command === 'set-plan') {
  const { runAdminCommand } = await import('./server/admin-cli')
  process.exitCode = await runAdminCommand(process.argv.slice(2))
} else {
  await import('./engine/cli')
}

export {}
