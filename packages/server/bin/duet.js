#!/usr/bin/env node
// The `duet` command. It lives outside dist/ so `npm ci` can link it before anything is built; the
// commands themselves are the built package.
import { existsSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'

const cli = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url))
if (existsSync(cli)) {
  await import(pathToFileURL(cli).href)
} else {
  process.stderr.write(
    'duet: @duetkit/server is not built yet (dist/cli/bin.js is missing).\n' +
      'In a checkout of Duet, run `npm run build` at the root first; an installed package ships built, so reinstall it.\n',
  )
  process.exitCode = 1
}
