// The MCP driver in the driver registry, and the same driver typed by a server's tools.
import type { Drivers } from '../runtime/types.js'
import type { ToolSignatures, ToolsOf } from '../protocol/tools.js'
import type { McpSinkValue } from './sinks.js'
import type { McpSource } from './sources.js'

/** The MCP driver as components see it, for a server with tools `T` whose view shows the tools named `V`. */
export interface McpDriverTypes<T = ToolSignatures, V extends keyof T = keyof T> {
  source: McpSource<T, V>
  sink: McpSinkValue<T>
}

declare module '../runtime/types.js' {
  interface Drivers {
    /** The MCP Apps driver (`makeMcpAppDriver`), its server's tools untyped; `McpDrivers<Server>` types them. */
    MCP: McpDriverTypes
  }
}

/**
 * The drivers of a view of `Server`, for `Component<State, Props, McpDrivers<Server>>` and
 * `component<State, Props, McpDrivers<Server>>()`. `Server` is the server's type, imported with
 * `import type` so nothing of the server reaches the view bundle. `{ callTool }` then takes only the
 * server's tool names, each with its arguments, and its `ok` action gets the tool's result with the
 * tool's `structuredContent` type; `tool-input` and `tool-result` are those of the view's own tool `View`
 * (default: any of the server's tools).
 *
 * @example
 * import type { ForecastServer } from '../server/server'
 * const App: Component<State, NoProps, McpDrivers<ForecastServer, 'get_forecast'>> = …
 */
export type McpDrivers<Server, View extends keyof ToolsOf<Server> = keyof ToolsOf<Server>> = Omit<Drivers, 'MCP'> & {
  MCP: McpDriverTypes<ToolsOf<Server>, View>
}
