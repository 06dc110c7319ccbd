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
 * Who an HTTP request is from, set by the listener around the whole request: `sub:<subject>` with auth, else
 * `address:<client address>`. The SDK's handler context carries no client address, so handlers read it here.
 */
export const requestCaller = new AsyncLocalStorage<string>()

/**
 * The client address of the HTTP request being served when it carries no subject (no auth), else `undefined`
 * (a subject, stdio, or outside a request). It stands in for the subject where quotas and evictions are kept
 * per user; it never decides whose data a call reaches (an address is no identity).
 */
export function anonymousClientAddress(): string | undefined {
  const caller = requestCaller.getStore()
  return caller?.startsWith('address:') ? caller.slice('address:'.length) : undefined
}
