#!/usr/bin/env node
// `npm start`: builds duetkit, @duetkit/server and the forecast view, starts the forecast server (:3001), the agent-apps
// server (`duet serve --http --port 3002`) and `duet dev` on both, and stops them all on Ctrl-C.
// Parts that are missing are skipped with a message, so the rest still comes up.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const at = (p) => fileURLToPath(new URL(`../${p}`, import.meta.url))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const DEV_PORT = Number(process.env.DUET_DEV_PORT ?? 5180)

const say = (line) => process.stdout.write(`start: ${line}\n`)

function build(label, cwd) {
  say(`building ${label}…`)
  const r = spawnSync(npm, ['run', 'build'], { cwd, stdio: 'inherit' })
  if (r.status !== 0) say(`building ${label} failed (exit ${r.status}); continuing with what exists`)
  return r.status === 0
}

build('duetkit and @duetkit/server', root)
const bin = at('packages/server/dist/cli/bin.js')
if (!existsSync(bin)) {
  say('packages/server/dist/cli/bin.js is missing, so duet cannot run; fix the build above and try again')
  process.exit(1)
}
const forecastDir = at('examples/forecast')
const hasForecast = existsSync(at('examples/forecast/package.json')) && existsSync(at('examples/forecast/server/server.js'))
if (hasForecast) build('the forecast view', forecastDir)
else say('examples/forecast (server/server.js) is not there yet: skipping the forecast server')

const children = []
function start(label, args, options = {}) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], ...options })
  child.on('exit', (code, signal) => {
    if (!stopping) say(`${label} exited (${signal ?? code})`)
  })
  children.push(child)
  return child
}

const servers = []
if (hasForecast) {
  start('forecast server', [at('examples/forecast/server/server.js')], { env: { ...process.env, PORT: '3001' } })
  servers.push('http://127.0.0.1:3001/mcp')
}
// `duet serve` may still be a placeholder; its help says so, and then it is skipped.
const serveHelp = spawnSync(process.execPath, [bin, 'serve', '--help'], { encoding: 'utf8' })
if (serveHelp.status === 0 && serveHelp.stdout.includes('--http')) {
  start('duet serve', [bin, 'serve', '--http', '--port', '3002'])
  servers.push('http://127.0.0.1:3002/mcp')
} else {
  say('`duet serve --http` is not available yet: skipping the agent-apps server')
}
if (servers.length === 0) {
  say('no server to host; nothing to do')
  process.exit(1)
}

const dev = start('duet dev', [bin, 'dev', '--port', String(DEV_PORT), ...servers.flatMap((s) => ['--server', s])], { stdio: ['ignore', 'pipe', 'inherit'] })
dev.stdout.on('data', (chunk) => {
  const text = chunk.toString('utf8')
  process.stdout.write(text)
  const url = /host ready at (\S+)/.exec(text)
  if (url) say(`open ${url[1]} in your browser (Ctrl-C stops everything)`)
})

let stopping = false
function stop() {
  if (stopping) return
  stopping = true
  say('stopping…')
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
  // A child that ignores SIGTERM is not allowed to keep `npm start` hanging.
  const force = setTimeout(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  }, 5000)
  force.unref()
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
// If duet dev itself dies, the others have no one to serve.
dev.on('exit', () => stop())
