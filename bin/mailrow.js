#!/usr/bin/env node
// The `mailrow` bin: runs the TypeScript CLI through tsx, so it works from a clone without a build.
import { register } from 'tsx/esm/api'

register()
await import('../src/cli.ts')
