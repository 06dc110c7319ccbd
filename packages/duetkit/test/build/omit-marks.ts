import type { OmittablePart } from 'duetkit/vite'

/** For each part `duet({ omit })` can leave out, a string only that part's code carries in a bundle. */
export const OMIT_MARKS: Record<OmittablePart, string> = {
  'dom-events': 'invalid CSS selector',
  'mcp-sinks': 'INVALID_SINK',
  'host-theme': 'safe-area-inset',
  svg: 'foreignObject',
  hooks: 'postpatch',
}
