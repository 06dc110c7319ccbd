// Type tests of duetkit/vite's options, checked by `tsc -p packages/duetkit/tsconfig.json` (vitest does not collect this file).
import { expectTypeOf } from 'vitest'
import { duet, type OmittablePart } from 'duetkit/vite'

expectTypeOf<OmittablePart>().toEqualTypeOf<'dom-events' | 'mcp-sinks' | 'host-theme' | 'svg' | 'hooks'>()
duet({ omit: ['dom-events', 'mcp-sinks', 'host-theme', 'svg', 'hooks'] })
// A list kept as a constant is taken as it is.
const parts = ['svg', 'hooks'] as const
duet({ omit: parts })
// @ts-expect-error a misspelled part
duet({ omit: ['svgs'] })
// @ts-expect-error one part, not a list
duet({ omit: 'svg' })
