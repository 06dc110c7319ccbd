// The two names of the view-state pattern on the wire, shared by the server that keeps a view's state,
// the view that asks for it, and the Apps SDK adapter that keeps it in the host's widget state instead.

/**
 * The `_meta` key an app tool's result carries its view instance id under: the MCP Apps "persisting
 * view state" pattern (ext-apps docs/patterns.md) names it `viewUUID`, so views written for the
 * official SDK find it too. Each tool call gets a fresh one; a host re-mounting the same result
 * replays the same one.
 */
export const VIEW_UUID_META_KEY = 'viewUUID'

/** The app-only tool of `@duetkit/server` a view keeps its state through where its sandbox has no `localStorage`. */
export const VIEW_STATE_TOOL = 'duet_view_state'
