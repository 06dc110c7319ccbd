/** @module duetkit */
// The view runtime: components, run, and what drivers need.
export { run } from './dom/run.js'
export type { RunOptions, RunningApp } from './dom/run.js'
export { Collection } from './runtime/collection.js'
export type { CollectionProps } from './runtime/collection.js'
export type { Lens } from './runtime/markers.js'
// Errors: one class and one code vocabulary for all of Duet (also at `duetkit/protocol`).
export { DuetError, ErrorCodes, isDuetError } from './protocol/errors.js'
export type { ErrorCode, ErrorData } from './protocol/errors.js'
export type { LogLevel } from './protocol/log-level.js'

// The driver contract.
export { reply, wantsReply, REPLY } from './runtime/driver.js'
export type { Driver, AnyDriver, DriverContext, AppHandle, AgentInstance, PersistHandle, RootHandle, ReplyKind, ReplyFn } from './runtime/driver.js'
// What a driver keeps of the root state (`App.persist`), read through `AppHandle.root()`.
export { persistenceOf } from './runtime/persist.js'

// Component types.
export type {
  Component,
  AnyComponent,
  ViewArgs,
  NoProps,
  Next,
  DataArg,
  Reducer,
  SinkReducer,
  ModelEntry,
  SinkEntries,
  Model,
  Sources,
  Intent,
  IntentResult,
  ActionStream,
  AgentSpec,
  AgentActionSpec,
  Drivers,
  DriverTypes,
  Replying,
  UntypedActions,
  ComponentTypes,
  StateOf,
  PropsOf,
  ActionsOf,
  DriversOf,
  PersistChoice,
} from './runtime/types.js'
// Declares a component whose intent, model and replies are checked against each other.
export { component } from './runtime/component.js'
export type { ActionsFrom, ComponentStatics } from './runtime/component.js'
export type { StandardSchemaV1, StandardResult, StandardIssue } from './runtime/standard-schema.js'
export type { DomSource, DomSelection, DomEventStream, DomEventMap, DomShorthands, EventsOptions, ControlState } from './dom/source.js'

// Testing without a host or a browser (also at `duet/testing`).
export { renderComponent } from './testing/render-component.js'
export type { RenderOptions, RenderedComponent } from './testing/render-component.js'

// Streams, for intents that combine them.
// `xs` is xstream's default export, which is its Stream class; the named import works in Node ESM too.
export { Stream as xs, Stream } from './runtime/stream.js'
