import type { AppServer } from '@duetkit/server'

/** Builds the reader's MCP server (open_reader and the channel tools); closing it closes its channel store. */
export function createReaderServer(options?: { dataDir?: string; viewFile?: string }): Promise<AppServer>
