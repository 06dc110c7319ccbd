import { existsSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { DuetError } from 'duetkit/protocol'

/** What `watchViewProject` reports: a build started, finished (with its time) or failed. */
export interface WatchHooks {
  started(): void
  built(ms: number): void
  failed(message: string): void
}

/** A running watch build; `close` stops it. */
export interface ViewWatcher {
  readonly dir: string
  close(): Promise<void>
}

// The part of Vite's build watcher (Rolldown's, in Vite 8) this file uses; Vite is the project's
// dependency, not ours, so its types are not imported.
// Its event codes are Rolldown's own words, not Duet error codes, hence the named constants.
type WatcherCode = 'START' | 'BUNDLE_START' | 'BUNDLE_END' | 'END' | 'ERROR'
interface WatchEvent {
  code: WatcherCode
  error?: { message?: string }
  result?: { close(): Promise<void> | void }
}
interface BuildWatcher {
  on(event: 'event', listener: (e: WatchEvent) => void): unknown
  close(): Promise<void> | void
}
type ViteBuild = (config: Record<string, unknown>) => Promise<unknown>

const FIRST_BUILD_TIMEOUT_MS = 120_000

/** A project folder and the Vite it installs, checked before `duet dev` opens any port. */
export interface ViteProject {
  root: string
  vitePath: string
}

/** Finds the project's own Vite; a missing folder or a project without Vite fails naming the option. */
export function findViteProject(dir: string): ViteProject {
  const root = resolve(dir)
  if (!existsSync(root) || !statSync(root).isDirectory())
    throw new DuetError('INVALID_OPTION', `startDevServer: options.watch must be a project folder; ${root} is not a folder`, { option: 'watch' })
  let vitePath: string
  try {
    vitePath = createRequire(join(root, 'package.json')).resolve('vite')
  } catch {
    throw new DuetError('INVALID_OPTION', `startDevServer: options.watch: no vite installed for ${root}; run npm install there (or npm install -D vite)`, {
      option: 'watch',
    })
  }
  return { root, vitePath }
}

/**
 * Runs the project's own Vite in watch mode (its config, its plugins: the same single-file build
 * `npm run build` makes), in this process so each rebuild reuses the warm module graph. Resolves once
 * the first build has finished or failed.
 */
export async function watchViewProject({ root, vitePath }: ViteProject, hooks: WatchHooks): Promise<ViewWatcher> {
  const { build } = (await import(pathToFileURL(vitePath).href)) as { build: ViteBuild }

  let started = 0
  let settleFirst: (() => void) | null = null
  const first = new Promise<void>((r) => {
    settleFirst = r
  })
  const watcher = (await build({
    root,
    logLevel: 'warn',
    clearScreen: false,
    build: { watch: {} },
  })) as BuildWatcher
  watcher.on('event', (e) => {
    if (e.code === 'START') {
      started = performance.now()
      hooks.started()
    } else if (e.code === 'BUNDLE_END') {
      // The watcher keeps each bundle open until told; without this every save would leak one.
      void Promise.resolve(e.result?.close()).catch(() => {})
    } else if (e.code === 'END') {
      hooks.built(performance.now() - started)
      settleFirst?.()
    } else if (e.code === 'ERROR') {
      void Promise.resolve(e.result?.close()).catch(() => {})
      hooks.failed(e.error?.message ?? 'the build failed')
      settleFirst?.()
    }
  })
  let timer: NodeJS.Timeout | undefined
  await Promise.race([first, new Promise<void>((r) => (timer = setTimeout(r, FIRST_BUILD_TIMEOUT_MS)))])
  clearTimeout(timer)
  settleFirst = null
  return {
    dir: root,
    async close() {
      await watcher.close()
    },
  }
}
