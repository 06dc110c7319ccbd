// The server's tools as the view sees them, at the type level only: a view imports its server's type
// (`import type`), so checking `callTool` names and arguments costs the view bundle nothing.

/** One tool as a view calls it: the arguments it takes and the `structuredContent` its result carries. */
export interface ToolSignature<Args = Record<string, unknown>, Structured = unknown> {
  args: Args
  structuredContent: Structured
}

/** Tool name → signature. */
export type ToolSignatures = Record<string, ToolSignature>

/**
 * Carried (as a type only, never a value) by anything that knows its tools' types. `AppServer` of
 * `@duetkit/server` implements it, so `ToolsOf<typeof server>` is the server's tool map.
 */
export interface TypedTools<T extends ToolSignatures> {
  readonly '~duetTools'?: T
}

/** The tool map of a server type; any tool, loosely typed, for a type that carries none. */
export type ToolsOf<S> = S extends TypedTools<infer T> ? (string extends keyof T ? ToolSignatures : T) : ToolSignatures
