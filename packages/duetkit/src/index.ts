// The view runtime: components, run, and what drivers need.
export { run } from './runtime/run.js'
export type { RunOptions, RunningApp } from './runtime/run.js'
export { Collection } from './runtime/collection.js'
export type { CollectionProps } from './runtime/collection.js'
export type { Lens } from './runtime/markers.js'
export { DuetError } from './runtime/errors.js'
export type { RuntimeErrorCode } from './runtime/errors.js'

// The driver contract.
export { reply, wantsReply, REPLY } from './runtime/driver.js'
export type { Driver, DriverContext, AppHandle, AgentInstance, ReplyKind, ReplyFn } from './runtime/driver.js'

// Component types.
export type {
  Component, ViewArgs, Next, Reducer, SinkReducer, ModelEntry, Model, Sources, Intent, AgentSpec, AgentActionSpec,
} from './runtime/types.js'
export type { StandardSchemaV1, StandardResult, StandardIssue } from './runtime/standard-schema.js'
export type { DomSource, DomSelection, DomEventStream, EventsOptions } from './dom/source.js'

// Testing without a host or a browser (also at `duet/testing`).
export { renderComponent } from './testing/render-component.js'
export type { RenderOptions, RenderedComponent } from './testing/render-component.js'

// Streams, for intents that combine them.
// `xs` is xstream's default export, which is its Stream class; the named import works in Node ESM too.
export { Stream as xs, Stream } from 'xstream'
