import { DuetError } from './errors.js'

// What `duet({ omit })` left out of this build. The Vite plugin (build/omit.ts) defines each of these
// names, `true` for a part left out and `false` for the rest, and the minifier then drops the code behind
// the branch not taken, so a view pays nothing for a part it does not use. Outside such a build (other
// bundlers, tests without the plugin) the names are undefined and every part is in. (Vitest also makes a
// define a global of the worker, which the `typeof` reads the same way.)
declare const __DUET_OMIT_DOM_EVENTS__: boolean | undefined
declare const __DUET_OMIT_MCP_SINKS__: boolean | undefined
declare const __DUET_OMIT_HOST_THEME__: boolean | undefined
declare const __DUET_OMIT_SVG__: boolean | undefined
declare const __DUET_OMIT_HOOKS__: boolean | undefined

/** Whether the build has DOM events (the `DOM` source and its delegation). */
export const HAS_DOM_EVENTS = typeof __DUET_OMIT_DOM_EVENTS__ === 'undefined' || !__DUET_OMIT_DOM_EVENTS__
/** Whether the build has the MCP driver's sinks (what a model sends to the host). */
export const HAS_MCP_SINKS = typeof __DUET_OMIT_MCP_SINKS__ === 'undefined' || !__DUET_OMIT_MCP_SINKS__
/** Whether the build applies the host's theme, style variables, fonts and safe-area insets. */
export const HAS_HOST_THEME = typeof __DUET_OMIT_HOST_THEME__ === 'undefined' || !__DUET_OMIT_HOST_THEME__
/** Whether the build has SVG (`<svg>` subtrees in the SVG namespace). */
export const HAS_SVG = typeof __DUET_OMIT_SVG__ === 'undefined' || !__DUET_OMIT_SVG__
/** Whether the build runs the `hook` prop's snabbdom lifecycle hooks. */
export const HAS_HOOKS = typeof __DUET_OMIT_HOOKS__ === 'undefined' || !__DUET_OMIT_HOOKS__

/** The error of a part the build left out, used anyway: it names the part and the option that left it out. */
export const omittedError = (part: string): DuetError => new DuetError('UNSUPPORTED', `${part}: left out of this build by duet({ omit: ['${part}'] })`)
