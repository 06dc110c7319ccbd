import {
  McpServer,
  requireScopes,
  type CallToolResult,
  type InputRequiredResult,
  type McpServerFactory,
  type ServerContext,
  type StandardSchemaWithJSON,
  type ToolAnnotations,
} from '@modelcontextprotocol/server'
import { RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server'
import type { ToolSignatures, TypedTools } from 'duetkit/protocol'
import * as z from 'zod'
import { registerView, resolveView, type ViewConfig } from './app-tool.js'
import { registerTwin, statusText, toolDialectMeta, twinUri } from './apps-sdk.js'
import { openAuthGate } from './auth-gate.js'
import { resolveAuth, scopeList, type AuthOptions } from './auth-options.js'
import { resolveRateLimit, type RateLimitOptions } from './rate-limit.js'
import { DuetError, invalidOption } from './errors.js'
import { withoutDialectDeclaration } from './listed-schema.js'
import { listenHttp, type HttpListenOptions } from './http.js'
import { listenStdio } from './stdio.js'
import { checkTaskSupport, resolveTaskOptions, TaskRegistry, type TaskOptions, type TaskSupport } from './tasks.js'
import { closeOnSignals } from './shutdown.js'
import { resolveViewState, VIEW_STATE_TOOL, viewStateHandler, viewStateInput, withViewUUID, type ViewStateOptions } from './view-state.js'
import type { NoTools, SchemaOutput, StructuredOf, ToolExtra, ToolHandler, ToolSchema, ToolSignatureOf, WithTool, ZodRawShape } from './tool-types.js'

export type { ToolExtra, ToolHandler } from './tool-types.js'

// Inside, a handler is called with what the SDK has validated; its public signature is what types it.
type CheckedHandler = (args: never, extra: ToolExtra) => CallToolResult | InputRequiredResult | Promise<CallToolResult | InputRequiredResult>

/** Who may call a tool: `'model'` (the agent) and/or `'app'` (this server's own views). */
export type ToolVisibility = 'model' | 'app'

/** A tool's definition, as the SDK's `registerTool` takes it plus MCP Apps visibility. */
export interface ToolConfig<In extends ToolSchema | undefined = ToolSchema | undefined, Out extends ToolSchema | undefined = ToolSchema | undefined> {
  title?: string
  description: string
  /** A zod raw shape (`{ key: z.string() }`) or a Standard Schema (`z.object(…)`); arguments are validated before the handler runs, which receives them typed. */
  inputSchema?: In
  /** The shape of the result's `structuredContent`: the SDK checks it, the handler must return it, and a view calling the tool sees it. */
  outputSchema?: Out
  annotations?: ToolAnnotations
  /** Default `['model', 'app']`; `['app']` hides the tool from the model, leaving it callable by the server's views. */
  visibility?: ToolVisibility[]
  /**
   * OAuth scopes a caller's token needs to call this tool (with `auth`; over stdio or without `auth` they
   * are not checked). A token without them gets HTTP 403 `insufficient_scope` naming them.
   */
  scopes?: string[]
  /**
   * Lets a long-running tool be called as a task (MCP 2025-11-25 tasks): `'optional'` either way, `'required'`
   * only as a task. A task call answers at once; the client polls `tasks/get`, fetches `tasks/result`, and
   * `tasks/cancel` fires the handler's `extra.mcpReq.signal`. 2026-07-28 clients call such a tool plainly.
   */
  task?: TaskSupport
  _meta?: Record<string, unknown>
}

/** An app tool: a tool whose result the host renders with `view`. */
export interface AppToolConfig<In extends ToolSchema | undefined = ToolSchema | undefined, Out extends ToolSchema | undefined = ToolSchema | undefined>
  extends ToolConfig<In, Out> {
  view: ViewConfig
  /** A short status (≤ 64 characters) Apps SDK hosts show while the tool runs, e.g. "Fetching the forecast…". */
  invoking?: string
  /** A short status (≤ 64 characters) Apps SDK hosts show once it has run, e.g. "Forecast ready". */
  invoked?: string
}

/** How to serve: stdio for a host that spawns the server, or Streamable HTTP. */
export interface ListenOptions {
  /** `true` serves one client over stdin/stdout (a host that spawns the server). Give this or `http`, not both. */
  stdio?: boolean
  /**
   * Serves Streamable HTTP: where (`port`, `host`, `path`), who may call (`allowedOrigins`, `allowedHosts`),
   * sessions, and the calls in flight bounded in total and per caller (`maxInFlight`, `maxInFlightPerSubject`,
   * `maxQueuedRequests`, `maxQueuedRequestsPerSubject`). Give this or `stdio`, not both.
   */
  http?: HttpListenOptions
  /** Close gracefully and exit 0 on SIGINT/SIGTERM. Default `true`. */
  handleSignals?: boolean
}

/** A running listener. `url` is set for HTTP, e.g. `http://127.0.0.1:3001/mcp`. */
export interface Listening {
  url?: string
  close(): Promise<void>
}

/** Options of {@link createAppServer}. */
export interface AppServerOptions {
  name: string
  version: string
  /** Told to the agent at connection time: how the tools fit together. */
  instructions?: string
  /**
   * The app-only `duet_view_state` tool, registered with the first app tool: views whose sandbox has no
   * `localStorage` keep their `App.persist` state through it. Default: in memory; `false` leaves it out.
   */
  viewState?: ViewStateOptions | false
  /**
   * Makes the HTTP listener an OAuth 2.1 resource server (MCP authorization): bearer tokens of `issuer`
   * verified (JWT against its JWKS, or introspection) or a custom `verifier`; Protected Resource Metadata
   * served; 401/403 challenges. Handlers read the caller with `subjectOf(ctx)`. Stdio is not affected.
   */
  auth?: AuthOptions
  /**
   * A token bucket per caller (token subject, else client address) and per tool, and per metered method
   * (`initialize`, `resources/*`, `prompts/*`…): past it, HTTP 429 with `Retry-After`. Only tools the server
   * has get a bucket. `store` shares the buckets between replicas (duet serve --redis-url does).
   */
  rateLimit?: RateLimitOptions
  /**
   * Also speak the OpenAI Apps SDK dialect (default `true`): each view gets a `text/html+skybridge` twin
   * named by `_meta["openai/outputTemplate"]`, and tools carry the matching `openai/*` keys, so hosts that
   * render only that dialect show the same views (duetkit's driver then talks through `window.openai`).
   */
  appsSdk?: boolean
  /** Limits of the tasks kept for tools with a `task` option: in all and per caller, and their lifetime. */
  tasks?: TaskOptions
}

/**
 * An MCP server with app tools, built on the official SDK. Registration methods return the server for
 * chaining, its type grown by each tool: `ReturnType<typeof createMyServer>` is what a view imports
 * (`import type`) to check its `callTool` names, arguments and results against `Tools`.
 */
export interface AppServer<Tools extends ToolSignatures = NoTools> extends TypedTools<Tools> {
  readonly name: string
  /**
   * An SDK server holding every registration, for connecting to a custom transport. HTTP and stdio serve
   * each request or connection from a fresh instance (the SDK requires one per connection), so add SDK
   * features not wrapped here with {@link AppServer.configure}, which reaches every instance.
   */
  readonly mcp: McpServer
  /** Registers a plain tool; `handler` receives the arguments `inputSchema` checked, typed by it. */
  tool<Name extends string, In extends ToolSchema | undefined = undefined, Out extends ToolSchema | undefined = undefined>(
    name: Name,
    config: ToolConfig<In, Out>,
    handler: ToolHandler<SchemaOutput<In>, StructuredOf<Out>>,
  ): AppServer<WithTool<Tools, Name, ToolSignatureOf<In, Out>>>
  /** Registers a tool with a view: `_meta.ui.resourceUri` on the tool and its `ui://` HTML resource. */
  appTool<Name extends string, In extends ToolSchema | undefined = undefined, Out extends ToolSchema | undefined = undefined>(
    name: Name,
    config: AppToolConfig<In, Out>,
    handler: ToolHandler<SchemaOutput<In>, StructuredOf<Out>>,
  ): AppServer<WithTool<Tools, Name, ToolSignatureOf<In, Out>>>
  /** Runs `setup` on every SDK server instance, now and for each one built later. */
  configure(setup: (mcp: McpServer) => void): AppServer<Tools>
  /** Runs `hook` when the server closes (after its listeners), e.g. to close a store. */
  onClose(hook: () => void | Promise<void>): AppServer<Tools>
  /** A factory of fully registered SDK servers, for the SDK's `createMcpHandler`/`serveStdio` or tests. */
  readonly factory: McpServerFactory
  listen(options: ListenOptions): Promise<Listening>
  /** Closes every listener (finishing in-flight requests), then runs the `onClose` hooks. Idempotent. */
  close(): Promise<void>
}

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/

/**
 * Creates an MCP Apps server.
 * @example
 * const app = createAppServer({ name: 'forecast', version: '1.0.0' })
 * app.appTool('get_forecast', { description: 'Forecast', inputSchema: { city: z.string() }, view: { file: 'dist/index.html' } },
 *   async ({ city }) => ({ content: [{ type: 'text', text: `Sunny in ${city}` }] }))
 * await app.listen({ http: { port: 3001 } })
 */
export function createAppServer(options: AppServerOptions): AppServer {
  if (!options || typeof options !== 'object') invalidOption('createAppServer', 'options', 'must be an object with name and version')
  const { name, version, instructions } = options
  if (typeof name !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(name))
    invalidOption('createAppServer', 'name', `must be letters, digits, '_', '.' or '-', got ${JSON.stringify(name)}`)
  if (typeof version !== 'string' || version === '') invalidOption('createAppServer', 'version', 'must be a non-empty string')
  if (instructions !== undefined && typeof instructions !== 'string') invalidOption('createAppServer', 'instructions', 'must be a string')
  if (options.appsSdk !== undefined && typeof options.appsSdk !== 'boolean') invalidOption('createAppServer', 'appsSdk', 'must be a boolean')
  const appsSdk = options.appsSdk !== false
  // Each view's `ui://` URI → its Apps SDK twin, so any tool naming the view (not only its app tool) names the twin too.
  const twins = new Map<string, string>()
  const viewState = resolveViewState(options.viewState)
  const auth = resolveAuth(options.auth)
  const rateLimit = resolveRateLimit(options.rateLimit)
  const taskLimits = resolveTaskOptions(options.tasks)
  // Each task tool's support, and the registry, built with the first task tool: one for every SDK server
  // instance (a task outlives the request, and the per-request instance, that created it).
  const taskSupport = new Map<string, TaskSupport>()
  let tasks: TaskRegistry | undefined
  // Every tool's scopes, advertised as `scopes_supported` in the metadata.
  const toolScopes = new Set<string>()
  let viewStateRegistered = false

  const setups: Array<(mcp: McpServer) => void> = []
  const names = new Set<string>()
  const listeners = new Set<Listening>()
  const closeHooks: Array<() => void | Promise<void>> = []
  let closing: Promise<void> | undefined

  const build = (): McpServer => {
    const mcp = new McpServer({ name, version }, instructions === undefined ? {} : { instructions })
    for (const setup of setups) setup(mcp)
    return mcp
  }
  const mcp = build()
  const add = (setup: (server: McpServer) => void) => {
    setups.push(setup)
    setup(mcp)
  }
  // Tools added through configure() are the SDK's alone; its registry (a private field) names them too.
  const knownTool = (toolName: string) =>
    names.has(`tool:${toolName}`) || Object.hasOwn((mcp as unknown as { _registeredTools?: object })._registeredTools ?? {}, toolName)
  const claim = (kind: string, key: string) => {
    if (names.has(key)) throw new DuetError('DUPLICATE_NAME', `createAppServer: ${kind} '${key}' is already registered`, { name: key })
    names.add(key)
  }

  const registerTool = (toolName: string, config: ToolConfig & Partial<AppToolConfig>, handler: CheckedHandler, uiMeta: Record<string, unknown>) => {
    const where = `tool('${toolName}')`
    if (typeof toolName !== 'string' || !TOOL_NAME.test(toolName)) invalidOption(where, 'name', 'must be 1-128 letters, digits, _ . or -')
    if (!config || typeof config.description !== 'string') invalidOption(where, 'description', 'is required')
    if (typeof handler !== 'function') invalidOption(where, 'handler', 'must be a function')
    const visibility = checkVisibility(where, config.visibility)
    const scopes = scopeList('scopes', config.scopes, where)
    const task = checkTaskSupport(where, config.task)
    claim('tool', `tool:${toolName}`)
    for (const scope of scopes) toolScopes.add(scope)
    const ui = { ...(config._meta?.ui as object | undefined), ...uiMeta, ...(visibility && { visibility }) }
    const resourceUri = (ui as { resourceUri?: unknown }).resourceUri
    const dialect = appsSdk
      ? toolDialectMeta({
          ...(typeof resourceUri === 'string' && twins.has(resourceUri) && { template: twins.get(resourceUri) }),
          ...(visibility && { visibility }),
          ...(statusText(where, 'invoking', config.invoking) !== undefined && { invoking: config.invoking }),
          ...(statusText(where, 'invoked', config.invoked) !== undefined && { invoked: config.invoked }),
        })
      : {}
    const _meta: Record<string, unknown> = { ...dialect, ...config._meta }
    if (Object.keys(ui).length > 0) _meta.ui = ui
    if (typeof uiMeta.resourceUri === 'string') _meta[RESOURCE_URI_META_KEY] = uiMeta.resourceUri
    const inputSchema = toObjectSchema(where, 'inputSchema', config.inputSchema)
    const outputSchema = toObjectSchema(where, 'outputSchema', config.outputSchema)
    const definition = {
      description: config.description,
      ...(config.title !== undefined && { title: config.title }),
      ...(config.annotations && { annotations: config.annotations }),
      ...(Object.keys(_meta).length > 0 && { _meta }),
      ...(outputSchema && { outputSchema }),
      // The SDK answers a call without them with 403 before the handler runs (no challenge without a token).
      ...(scopes.length > 0 && { scopeChallenge: requireScopes(...(scopes as [string, ...string[]])) }),
    }
    add((server) => {
      const registered = inputSchema
        ? server.registerTool(toolName, { ...definition, inputSchema }, (args: unknown, extra: ServerContext) => handler(args as never, extra))
        : // The SDK calls a schema-less tool with the context alone; handlers always get (args, extra).
          server.registerTool(toolName, definition, (extra: ServerContext) => handler({} as never, extra))
      // `registerTool` takes no `execution`; the registered tool carries it into tools/list.
      if (task) registered.execution = { taskSupport: task }
    })
    if (task) {
      taskSupport.set(toolName, task)
      if (!tasks) {
        const registry = new TaskRegistry(taskLimits)
        tasks = registry
        add((server) => registry.install(server, taskSupport, knownTool))
      }
    }
  }

  // Registering returns the same object: only its type grows by the tool, and no value carries that type.
  const grown = <T extends ToolSignatures>() => app as AppServer<ToolSignatures> as AppServer<T>

  const app: AppServer = {
    name,
    mcp,
    factory: build,
    tool(toolName, config, handler) {
      registerTool(toolName, config, handler, {})
      return grown()
    },
    appTool(toolName, config, handler) {
      const view = resolveView(name, toolName, config?.view)
      // Each result names its view instance, the key its kept state lives under.
      const withUUID = (async (args: never, extra: ToolExtra) => withViewUUID(await handler(args, extra))) as CheckedHandler
      if (typeof handler !== 'function') invalidOption(`tool('${toolName}')`, 'handler', 'must be a function')
      if (appsSdk) twins.set(view.uri, twinUri(view.uri))
      registerTool(toolName, config, withUUID, { resourceUri: view.uri })
      claim('resource', `resource:${view.uri}`)
      add((server) => registerView(server, `${toolName} view`, view))
      if (appsSdk) {
        claim('resource', `resource:${twinUri(view.uri)}`)
        add((server) => registerTwin(server, `${toolName} view (Apps SDK)`, view, config.description))
      }
      if (viewState && !viewStateRegistered) {
        viewStateRegistered = true
        registerTool(
          VIEW_STATE_TOOL,
          {
            description: "Keeps a view's state across re-mounts where its sandbox has no localStorage (called by duetkit views, not the model).",
            inputSchema: viewStateInput,
            visibility: ['app'],
          },
          viewStateHandler(viewState) as CheckedHandler,
          {},
        )
      }
      return grown()
    },
    configure(setup) {
      if (typeof setup !== 'function') invalidOption('configure', 'setup', 'must be a function')
      add(setup)
      return app
    },
    onClose(hook) {
      if (typeof hook !== 'function') invalidOption('onClose', 'hook', 'must be a function')
      closeHooks.push(hook)
      return app
    },
    async listen(listenOptions) {
      if (closing) throw new DuetError('NOT_LISTENING', `listen: server '${name}' is closed`, { state: 'closed' })
      const { stdio, http, handleSignals = true } = listenOptions ?? {}
      if (!stdio === !http) invalidOption('listen', 'stdio | http', 'needs exactly one of { stdio: true } or { http: { … } }')
      const gate = http && auth ? await openAuthGate(auth, name, () => [...toolScopes]) : undefined
      const listening = stdio
        ? listenStdio(build, () => void app.close())
        : await listenHttp(build, http!, { ...(gate && { auth: gate }), ...(rateLimit && { rateLimit, knownTool }) })
      const tracked: Listening = {
        ...listening,
        async close() {
          listeners.delete(tracked)
          await listening.close()
        },
      }
      listeners.add(tracked)
      if (handleSignals) closeOnSignals(app.close)
      return tracked
    },
    close() {
      closing ??= (async () => {
        // Tasks first: a tasks/result waiting on a running task is answered (cancelled) instead of holding shutdown.
        tasks?.close()
        await Promise.allSettled([...listeners].map((l) => l.close()))
        for (const hook of closeHooks) await hook()
        await mcp.close()
      })()
      return closing
    },
  }
  return app
}

function checkVisibility(where: string, visibility: ToolVisibility[] | undefined): ToolVisibility[] | undefined {
  if (visibility === undefined) return undefined
  if (!Array.isArray(visibility) || visibility.length === 0 || visibility.some((v) => v !== 'model' && v !== 'app')) {
    invalidOption(where, 'visibility', `must be a non-empty array of 'model' and 'app', got ${JSON.stringify(visibility)}`)
  }
  return [...new Set(visibility)]
}

function isSchema(value: unknown): boolean {
  // Duck-typed on Standard Schema so a zod copy other than ours still counts.
  return typeof value === 'object' && value !== null && '~standard' in value
}

function toObjectSchema(where: string, option: string, schema: ToolSchema | undefined): StandardSchemaWithJSON | undefined {
  if (schema === undefined) return undefined
  if (isSchema(schema)) return withoutDialectDeclaration(schema as StandardSchemaWithJSON)
  if (schema === null || typeof schema !== 'object' || !Object.values(schema).every(isSchema)) {
    invalidOption(where, option, 'must be a zod object schema or a record of zod schemas')
  }
  return withoutDialectDeclaration(z.object(schema as ZodRawShape))
}
