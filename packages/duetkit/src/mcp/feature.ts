import type { AppsSdkHost } from '../protocol/apps-sdk-adapter.js'
import type { AppHandle } from '../runtime/driver.js'
import type { JsonObject } from './json-rpc.js'
import type { Outgoing } from './sinks.js'
import type { McpSourceName } from './sources.js'

/**
 * What the driver core lends a feature: the running app, the window, and the host link. A feature
 * only exists in a bundle when the view passes it, so the core knows nothing about any one feature.
 */
export interface McpFeatureContext {
  app: AppHandle
  /** The view's window, when there is one. */
  win: (Window & typeof globalThis) | undefined
  /** False when the view is not framed by a host. */
  hasHost: boolean
  /** The host when it is `window.openai` (an Apps SDK host), presented as one by the script of the server's Apps SDK twin (protocol/apps-sdk-adapter.ts); undefined elsewhere. */
  appsSdk: AppsSdkHost | undefined
  /** How long a request may wait for the host (the driver's `timeoutMs`). */
  timeoutMs: number
  /** Calls a server tool through the host (waits for the handshake); an `isError` result resolves. */
  callTool(name: string, args: JsonObject): Promise<JsonObject>
  /** Sends a notification to the host once connected. */
  notify(method: string, params: JsonObject): Promise<void>
  /** Whether the handshake has completed. */
  connected(): boolean
  /** Waits for the handshake and resolves with the host's answer (rejects as the handshake failed). */
  handshake(): Promise<JsonObject>
  /** The host's `hostCapabilities`, once the handshake answered; undefined before. */
  hostCapabilities(): JsonObject | undefined
  /** The host context so far. */
  hostContext(): JsonObject
}

/** What a started feature adds to the driver; every part is optional. */
export interface McpFeatureParts {
  /** Merged into the handshake's `appCapabilities`. */
  appCapabilities?: JsonObject
  /** Sink keys this feature turns into a host message (checked after the core's own keys). */
  sinks?: Record<string, (value: unknown, sink: JsonObject) => Outgoing>
  /** Sink keys this feature answers itself; the result goes to the `ok` action. */
  handlers?: Record<string, (value: unknown, sink: JsonObject) => Promise<unknown>>
  /** Refuses an outgoing message before it is posted (after the handshake); undefined lets it go. */
  check?(out: Outgoing): Error | undefined
  /** Answers a host request the core does not know; undefined when it is not this feature's. */
  onRequest?(method: string, params: JsonObject): Promise<JsonObject> | undefined
  /** After the handshake answered (before the `host` source emits). */
  onConnected?(result: JsonObject): void
  /** After the view's tool result was emitted to the `tool-result` source. */
  onToolResult?(result: JsonObject): void
  /** Serves a source name instead of the core's hub (e.g. `agent-message`). */
  select?(name: McpSourceName): unknown
  /** The host asked to tear the view down (before the `teardown` source emits). */
  onTeardown?(): void
  /** The app was disposed. */
  dispose?(): void
}

/** A driver feature, e.g. `withViewState()`: started once per driver with its context. */
export type McpFeature = (context: McpFeatureContext) => McpFeatureParts
