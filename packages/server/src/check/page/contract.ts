import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { HostPreset } from '../../dev/presets.js'

/** One message that crossed between the host page and the sandbox, as the host saw it. */
export interface RecordedMessage {
  dir: 'view->host' | 'host->view'
  /** `performance.now()` on the host page. */
  at: number
  message: unknown
}

/** What the runner hands the page to render one view. */
export interface MountConfig {
  sandboxUrl: string
  html: string
  csp?: unknown
  permissions?: unknown
  preset: HostPreset
  hostContext: McpUiHostContext
}

/** How the view answered `ui/resource-teardown`, or that it did not in time. */
export type TeardownAnswer = { result: unknown } | { error: { code: unknown; message: string } } | 'timeout'

/** `window.__duetCheck` on the check page: the steps the runner drives and what they recorded. */
export interface CheckPageApi {
  trace: RecordedMessage[]
  logs: { label: string; value: unknown }[]
  /** Messages the sibling frame received after forging (a view answering it). */
  forgedReplies: unknown[]
  /** What the sandbox proxy relayed from the view's document (see dev/view-diagnostics.ts). */
  diagnostics: { level: 'error' | 'warning'; kind: string; text: string }[]
  mount(config: MountConfig): Promise<void>
  /** True once the view sent `ui/notifications/initialized`, waiting at most `ms`. */
  waitInitialized(ms: number): Promise<boolean>
  sendToolInput(args: Record<string, unknown>): Promise<void>
  sendToolResult(result: unknown): Promise<void>
  setTheme(theme: 'light' | 'dark'): void
  /** Posts each message to the view from a sibling frame of the host page. */
  forge(messages: unknown[]): void
  /** Sends the view an MCP `ping` and waits at most `ms` for its answer. */
  ping(ms: number): Promise<TeardownAnswer>
  teardown(ms: number): Promise<TeardownAnswer>
}
