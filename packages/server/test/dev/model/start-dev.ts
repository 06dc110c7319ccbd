import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { modernNode } from './modern-node.js'

const DUET_BIN = fileURLToPath(new URL('../../../dist/cli/bin.js', import.meta.url))

/** A `duet dev` process started from its CLI. */
export interface DevProcess {
  url: string
  child: ChildProcess
  output(): string
  stop(): Promise<void>
}

/** Runs `duet dev <args>` on a Node the AI SDK 7 runs on; resolves with the page's URL once it is ready. */
export function startDevCli(args: string[], env: Record<string, string> = {}): Promise<DevProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(modernNode(), [DUET_BIN, 'dev', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    const timer = setTimeout(() => {
      child.kill()
      reject(new Error(`duet dev did not get ready: ${out}`))
    }, 30_000)
    const read = (c: Buffer) => {
      out += c.toString('utf8')
      const m = /host ready at (http:\/\/\S+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve({
          url: m[1],
          child,
          output: () => out,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done()
              child.once('exit', () => done())
              child.kill('SIGTERM')
            }),
        })
      }
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`duet dev exited ${code}: ${out}`))
    })
  })
}
