/**
 * xstream requires the `globalthis` polyfill package, and with it five more packages (about 5.7 KB
 * minified), for one `globalThis` lookup. Every browser that runs MCP Apps has `globalThis`, so
 * bundlers map that import to this one-liner instead. It is CommonJS because xstream `require`s it:
 * an ES module there would cost an interop wrapper.
 */
export const GLOBALTHIS_SHIM = 'module.exports = { getPolyfill: () => globalThis }\n'

/** The module id bundlers resolve `globalthis` to; the leading NUL keeps other plugins off it. */
export const GLOBALTHIS_SHIM_ID = '\0duet:globalthis'

/**
 * The same contract as `symbol-observable/ponyfill` (find or register `Symbol.observable`) without
 * its branch for engines that lack `Symbol`, in one module instead of two.
 */
export const SYMBOL_OBSERVABLE_SHIM = `module.exports = { default: (root) => {
  const S = root.Symbol, s = S.observable || S.for('https://github.com/benlesh/symbol-observable')
  try { S.observable = s } catch {}
  return s
} }
`

/** Every module xstream imports that a browser build can replace, by specifier: the shim's id and code. */
export const SHIMS: Record<string, { id: string; code: string }> = {
  globalthis: { id: GLOBALTHIS_SHIM_ID, code: GLOBALTHIS_SHIM },
  'symbol-observable/ponyfill': { id: '\0duet:symbol-observable', code: SYMBOL_OBSERVABLE_SHIM },
}
