// `npm run dev`: duet dev on this server, rebuilding and re-mounting the view on save, and beside it
// the type checker in watch mode, so a type error shows in this terminal as soon as the file is saved
// (Vite only strips the types). Ctrl-C, or either one ending, stops both.
import { spawn } from 'node:child_process'

// npm run puts node_modules/.bin on the PATH; on Windows its entries are .cmd files, which need a shell.
const shell = process.platform === 'win32'
const children = [
  spawn('tsc', ['--noEmit', '--watch', '--preserveWatchOutput', '-p', 'tsconfig.json'], { stdio: 'inherit', shell }),
  spawn('duet', ['dev', '--watch', '.', '--stdio', 'node build/server.js --stdio'], { stdio: 'inherit', shell }),
]

let code
for (const child of children) {
  child.on('exit', (exit, signal) => {
    code ??= exit ?? (signal ? 1 : 0)
    for (const other of children) if (other.exitCode === null && other.signalCode === null) other.kill('SIGTERM')
    if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exit(code)
  })
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal)
  })
}
