import { DuetError } from 'duetkit/protocol'

/**
 * Loads a module that needs an optional peer dependency (`redis` for the redis channel store). When
 * the peer itself is not installed, fails with STORE_UNAVAILABLE saying what to install; any other
 * failure (a dependency of the peer missing, a bug in the module) is rethrown as it is.
 */
export async function importWithPeer<T>(peer: string, usedFor: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load()
  } catch (err) {
    if (missingPackage(err) !== peer) throw err
    throw new DuetError(
      'STORE_UNAVAILABLE',
      `${usedFor} needs the package ${peer}, which is not installed: run \`npm install ${peer}\` in your project.`,
      { package: peer },
      { cause: err },
    )
  }
}

/** The package a failed `import` could not find, as Node reports it (`Cannot find package 'x' imported from …`). */
export function missingPackage(err: unknown): string | undefined {
  if (!(err instanceof Error) || (err as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') return undefined
  return /^Cannot find package '([^']+)'/.exec(err.message)?.[1]
}
