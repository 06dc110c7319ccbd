import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

// The interop suite's own Node 22 (npm ci --prefix test/interop; npm test's pretest installs it).
const INTEROP_NODE = fileURLToPath(new URL('../../../../../test/interop/node_modules/.bin/node', import.meta.url))

/**
 * A Node that runs the AI SDK 7 (22 or newer) for `duet dev --model`: this one when it is, else
 * $DUET_NODE22, else the interop suite's Node 22. Throws, saying how to get one, when there is none.
 */
export function modernNode(): string {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath
  const candidate = process.env.DUET_NODE22 ?? INTEROP_NODE
  if (existsSync(candidate)) return candidate
  throw new Error(
    `duet dev --model needs Node 22+; this is ${process.version} and ${candidate} is missing: run npm ci --prefix test/interop or set DUET_NODE22`,
  )
}
