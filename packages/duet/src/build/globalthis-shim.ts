/**
 * xstream requires the `globalthis` polyfill package, and with it five more packages (about 5.7 KB
 * minified), for one `globalThis` lookup. Every browser that runs MCP Apps has `globalThis`, so
 * bundlers map that import to this one-liner instead. It is CommonJS because xstream `require`s it:
 * an ES module there would cost an interop wrapper.
 */
export const GLOBALTHIS_SHIM = 'module.exports = { getPolyfill: () => globalThis }\n'

/** The module id bundlers resolve `globalthis` to; the leading NUL keeps other plugins off it. */
export const GLOBALTHIS_SHIM_ID = '\0duet:globalthis'
