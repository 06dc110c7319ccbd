// esbuild is an optional peer: this is the one file that names it (the import-direction test keeps it
// so). The compile pool asks where it is installed; the compiler reads its message type from here.
import { createRequire } from 'node:module'
import { DuetError } from 'duetkit/protocol'

export type { Message as EsbuildMessage } from 'esbuild'

/** Where esbuild, an optional peer of @duetkit/server (the CLI brings it), is installed; a clear error when it is not. */
export function resolveEsbuild(): string {
  try {
    return createRequire(import.meta.url).resolve('esbuild')
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw err
    throw new DuetError(
      'UNSUPPORTED',
      "display_component needs the package esbuild, which is not installed on this server: run `npm install esbuild` in the server's project (or use @duetkit/cli, which brings it). display_ui_to_user works without it.",
      { package: 'esbuild' },
      { cause: err },
    )
  }
}
