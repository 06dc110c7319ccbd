// Names shared by the display shell (browser) and the server code that builds what it runs. Kept in
// their own module so the shell bundle does not pull in the server's compiler.

/** Where the shell publishes `duetkit`, `duetkit/jsx-runtime` and `duetkit/mcp` for compiled components. */
export const SHARED_MODULES_GLOBAL = '__duetModules'
/** The function a compiled component calls with its default export. */
export const MOUNT_GLOBAL = '__duetMount'
/** The `_meta` key of a display result that repeats the fragment (the tool input carries it too). */
export const HTML_META_KEY = 'duet/html'
/** The `sourceURL` a compiled component carries, so the shell can tell its stack frames from its own. */
export const COMPONENT_SCRIPT_NAME = 'duet-component.js'
