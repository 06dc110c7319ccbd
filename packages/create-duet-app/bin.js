#!/usr/bin/env node
import { main } from './src/cli.js'

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (err) => {
    // CreateErrors are reported by main; anything else is a bug worth its stack.
    process.stderr.write(`create-duet-app: unexpected error\n${err?.stack ?? err}\n`)
    process.exitCode = 1
  },
)
