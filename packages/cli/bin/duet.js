#!/usr/bin/env node
// The `duet` command. The commands are @duetkit/server's `./cli` entry; this package only names the bin
// and brings the optional peers the commands use (better-sqlite3 for the stores, esbuild for display_component, playwright-core for
// duet check, redis for --redis-url), so `npm i -D @duetkit/cli` is the whole install.
try {
  await import('@duetkit/server/cli')
} catch (err) {
  // In a checkout nothing is built until `npm run build`; an installed @duetkit/server ships built.
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !/@duetkit[\\/]server|dist[\\/]cli[\\/]bin\.js/.test(String(err.message))) throw err
  process.stderr.write(
    `duet: @duetkit/server's command line cannot be loaded (${err.message}).\n` +
      'In a checkout of Duet, run `npm run build` at the root first; in a project, install the CLI with `npm i -D @duetkit/cli`.\n',
  )
  process.exitCode = 1
}
