import { createServer, type Server } from 'node:net'

/** Listens on `port` of 127.0.0.1 (0: a free one); rejects when it is taken. */
export async function listenOn(port: number): Promise<Server> {
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  return server
}

/**
 * A port that was free a moment ago together with the one after it: `duet dev`'s page and its
 * sandbox origin, which is always the page's port + 1.
 */
export async function freePortPair(): Promise<number> {
  for (;;) {
    const first = await listenOn(0)
    const port = (first.address() as { port: number }).port
    const second = port < 65535 ? await listenOn(port + 1).catch(() => undefined) : undefined
    await new Promise((resolve) => first.close(resolve))
    if (second) {
      await new Promise((resolve) => second.close(resolve))
      return port
    }
  }
}

/** A port of 127.0.0.1 that was free a moment ago (for a process that takes its port by flag or env). */
export async function freePort(): Promise<number> {
  const server = await listenOn(0)
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}
