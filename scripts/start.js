#!/usr/bin/env node
// `npm start`: builds duetkit, @duetkit/server and the forecast view, starts the forecast server (:3001, `PORT`), the
// agent-apps server (`duet serve --http`, :3002, `DUET_SERVE_PORT`) and `duet dev` on both (:5180 and the sandbox on
// :5181, `DUET_DEV_PORT`), and stops them all on Ctrl-C. Parts that are missing are skipped with a message, so the
// rest still comes up. A taken port, or a part that dies, stops everything with a one-line reason and exit code 1.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const at = (p) => fileURLToPath(new URL(`../${p}`, import.meta.url))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

const say = (line) => process.stdout.write(`start: ${line}\n`)
const fail = (line) => {
  process.stderr.write(`start: ${line}\n`)
  process.exit(1)
}

function portFrom(name, fallback) {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`${name} must be a port number 1-65535, got '${raw}'`)
  return port
}
const FORECAST_PORT = portFrom('PORT', 3001)
const SERVE_PORT = portFrom('DUET_SERVE_PORT', 3002)
const DEV_PORT = portFrom('DUET_DEV_PORT', 5180)
// duet dev serves its sandbox proxy on the next port (a second origin).
const ports = [
  [FORECAST_PORT, 'PORT', 'the forecast server'],
  [SERVE_PORT, 'DUET_SERVE_PORT', 'duet serve'],
  [DEV_PORT, 'DUET_DEV_PORT', 'duet dev'],
  [DEV_PORT + 1, 'DUET_DEV_PORT', "duet dev's sandbox (DUET_DEV_PORT + 1)"],
]

// Resolves with the error code when `port` cannot be bound on loopback (EADDRINUSE when taken), else null.
function probe(port) {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', (err) => resolve(err.code ?? err.message))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(null)))
  })
}

// Before the builds: a taken port is found in a second, not after a minute of building.
const seen = new Map()
for (const [port, name, what] of ports) {
  if (seen.has(port)) fail(`${what} and ${seen.get(port)} would both use port ${port}; set ${name} to another port`)
  seen.set(port, what)
  const problem = await probe(port)
  if (problem === 'EADDRINUSE') fail(`port ${port} (${what}) is in use; stop what holds it or set ${name} to another port`)
  if (problem) fail(`port ${port} (${what}) cannot be used (${problem}); set ${name} to another port`)
}

function build(label, cwd) {
  say(`building ${label}…`)
  const r = spawnSync(npm, ['run', 'build'], { cwd, stdio: 'inherit' })
  if (r.status !== 0) say(`building ${label} failed (exit ${r.status}); continuing with what exists`)
  return r.status === 0
}

build('duetkit and @duetkit/server', root)
// The duet bin of @duetkit/cli, which loads the commands @duetkit/server's build writes.
const bin = at('packages/cli/bin/duet.js')
if (!existsSync(at('packages/server/dist/cli/bin.js'))) {
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
    if (stopping) return
    // Anything that ends on its own (a port taken since the check, a crash) ends the demo, and npm start fails.
    process.stderr.write(`start: ${label} exited (${signal ?? `code ${code}`}); stopping everything\n`)
    process.exitCode = 1
    stop()
  })
  children.push(child)
  return child
}

const servers = []
if (hasForecast) {
  start('forecast server', [at('examples/forecast/server/server.js')], { env: { ...process.env, PORT: String(FORECAST_PORT) } })
  servers.push(`http://127.0.0.1:${FORECAST_PORT}/mcp`)
}
// `duet serve` may still be a placeholder; its help says so, and then it is skipped.
const serveHelp = spawnSync(process.execPath, [bin, 'serve', '--help'], { encoding: 'utf8' })
if (serveHelp.status === 0 && serveHelp.stdout.includes('--http')) {
  start('duet serve', [bin, 'serve', '--http', '--port', String(SERVE_PORT)])
  servers.push(`http://127.0.0.1:${SERVE_PORT}/mcp`)
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
// If duet dev itself dies, the others have no one to serve (its exit handler above says so and stops them).
