// The types that carry a tool's schemas into its handler and into the server's own type, the way the
// SDK's `registerTool` infers its callback: the handler sees its arguments, and a view that imports
// the server's type (type only) sees each tool's arguments and structured result.
import type { CallToolResult, InputRequiredResult, ServerContext, StandardSchemaWithJSON } from '@modelcontextprotocol/server'
import type { ToolSignature } from 'duetkit/protocol'
import type * as z from 'zod'

/** A record of zod field schemas, e.g. `{ city: z.string() }`: shorthand for `z.object({ … })`. */
export type ZodRawShape = Record<string, z.ZodType>

/**
 * What `inputSchema` and `outputSchema` take: a zod raw shape, or any Standard Schema that can also
 * describe itself as JSON Schema (zod 4.2+, ArkType, Valibot through `toStandardJsonSchema`), which
 * the SDK needs to list the tool.
 */
export type ToolSchema = StandardSchemaWithJSON | ZodRawShape

/** The arguments of a tool without an input schema: none. */
export type NoArgs = Record<string, never>

type StandardTypes<S extends StandardSchemaWithJSON> = NonNullable<S['~standard']['types']>

/** What a caller passes for `schema` (before defaults and transforms): the arguments a view sends. */
export type SchemaInput<S extends ToolSchema | undefined> = S extends StandardSchemaWithJSON
  ? StandardTypes<S>['input']
  : S extends ZodRawShape
    ? z.input<z.ZodObject<S>>
    : NoArgs

/** What `schema` produces once it has checked a value: the arguments a handler receives. */
export type SchemaOutput<S extends ToolSchema | undefined> = S extends StandardSchemaWithJSON
  ? StandardTypes<S>['output']
  : S extends ZodRawShape
    ? z.output<z.ZodObject<S>>
    : NoArgs

/** The `structuredContent` a tool returns: its output schema's type, unchecked without one. */
export type StructuredOf<Out extends ToolSchema | undefined> = Out extends ToolSchema ? SchemaOutput<Out> : unknown

/** What the SDK passes a tool handler besides its arguments: abort signal, progress and logging helpers, the HTTP request. */
export type ToolExtra = ServerContext

/** A tool's result, its `structuredContent` typed by the tool's output schema. */
export type ToolResult<Structured = unknown> = CallToolResult & { structuredContent?: Structured }

/**
 * A tool handler; a thrown error becomes an `isError` result the model can read. Returning
 * `inputRequired({ inputRequests })` asks the client for input or a completion first: 2026-07-28
 * clients answer and retry (`extra.mcpReq.inputResponses`), 2025-era clients with a session are asked
 * over it and the handler is called again with the answers.
 */
export type ToolHandler<Args = NoArgs, Structured = unknown> = (
  args: Args,
  extra: ToolExtra,
) => ToolResult<Structured> | InputRequiredResult | Promise<ToolResult<Structured> | InputRequiredResult>

/** The arguments a view passes a tool: an object, as MCP requires of tool arguments. */
export type ToolArgs<In extends ToolSchema | undefined> = SchemaInput<In> extends infer Args extends Record<string, unknown> ? Args : NoArgs

/** The signature a view sees for a tool registered with these schemas. */
export type ToolSignatureOf<In extends ToolSchema | undefined, Out extends ToolSchema | undefined> = ToolSignature<ToolArgs<In>, StructuredOf<Out>>

/** No tools yet: the tool map of a fresh server. */
export type NoTools = Record<never, never>

/** `Tools` with `Name` added: a flat map rather than a chain of intersections, so editors show it readably. */
export type WithTool<Tools, Name extends string, Signature> = {
  [K in keyof Tools | Name]: K extends Name ? Signature : K extends keyof Tools ? Tools[K] : never
}
