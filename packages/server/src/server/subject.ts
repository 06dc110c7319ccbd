// Whose request a handler serves: the one place that reads the caller's identity, so every room
// (channels, saved apps, logs) scopes its data the same way.
import { AsyncLocalStorage } from 'node:async_hooks'
import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server'

/** The environment variable that names a stdio server's subject (a stdio server runs as whoever started it). */
export const SUBJECT_ENV = 'DUET_SUBJECT'

/** What {@link subjectOf} reads: any handler context of the SDK (`ctx.http?.authInfo`). */
export type SubjectContext = Pick<ServerContext, 'http'>

/**
 * The subject a request acts for, or `undefined` when there is none.
 * - over HTTP with `auth`: the verified token's subject (`authInfo.extra.sub`, the JWT `sub` claim);
 * - over HTTP without `auth`: `undefined` (every caller is the same anonymous one);
 * - over stdio (no HTTP request at all): `$DUET_SUBJECT` when set, else `undefined`.
 */
export function subjectOf(ctx: SubjectContext | undefined): string | undefined {
  const http = ctx?.http
  if (http) return subjectOfAuth(http.authInfo)
  const fromEnv = process.env[SUBJECT_ENV]
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : undefined
}

/** The subject a verifier stamped on the token's `AuthInfo` (`extra.sub`), if it is a non-empty string. */
export function subjectOfAuth(authInfo: AuthInfo | undefined): string | undefined {
  const sub = authInfo?.extra?.sub
  return typeof sub === 'string' && sub !== '' ? sub : undefined
}

/**
 * The HTTP request being served, by caller: `sub:<subject>` with auth, else `address:<client address>`.
 * The HTTP listener runs each request inside it, so per-user limits can group callers without auth too.
 */
export const callerScope = new AsyncLocalStorage<string>()

/**
 * Whose share a request counts against, for per-user limits and evictions: the subject when there is one,
 * else the client address over HTTP (without auth), else `local` (stdio: whoever started the server).
 */
export function callerOf(ctx: SubjectContext | undefined): string {
  const sub = subjectOf(ctx)
  if (sub !== undefined) return `sub:${sub}`
  return callerScope.getStore() ?? 'local'
}
