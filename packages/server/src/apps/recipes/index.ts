import { bidirectionalEvents } from './bidirectional-events.js'
import { contentViewer } from './content-viewer.js'
import { declarationReader } from './declaration-reader.js'
import { debugging } from './debugging.js'
import { duetComponents } from './duet-components.js'
import { gettingStarted } from './getting-started.js'
import { hostCapabilities } from './host-capabilities.js'
import { marginComments } from './margin-comments.js'
import type { Recipe } from './recipe.js'

export type { Recipe } from './recipe.js'

/** Every recipe, in reading order. */
export const RECIPES: readonly Recipe[] = Object.freeze([
  gettingStarted,
  bidirectionalEvents,
  duetComponents,
  marginComments,
  declarationReader,
  contentViewer,
  hostCapabilities,
  debugging,
])
