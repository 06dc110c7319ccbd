import type { AppServer, NoArgs } from '@duetkit/server'
import type { ToolSignature } from 'duetkit/protocol'

/** The reader's server as its view sees it: open_reader takes no arguments; its result names the channel. */
export type ReaderServer = AppServer<{ open_reader: ToolSignature<NoArgs, { channel_id: string }> }>

/** Builds the reader's MCP server (open_reader and the channel tools); closing it closes its channel store. */
export function createReaderServer(options?: { dataDir?: string; viewFile?: string }): Promise<ReaderServer>
