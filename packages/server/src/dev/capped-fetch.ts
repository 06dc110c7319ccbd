/**
 * A `fetch` whose response bodies are counted as they stream and cut off past `limit` bytes, so a
 * huge answer from a server is refused while it arrives, never held whole. A body that declares a
 * length past the limit is refused before it is read. `onTooLarge` hears of each refusal: what
 * happened, and the bytes declared or seen so far. `duet check` and `duet dev` read HTTP servers
 * through it, as they read stdio servers through the capped stdio transport.
 */
export function cappedFetch(limit: number, onTooLarge: (what: string, bytes: number) => void, inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init)
    const declared = Number(response.headers.get('content-length') ?? Number.NaN)
    if (declared > limit) {
      await response.body?.cancel().catch(() => {})
      onTooLarge(`the server's HTTP response declared ${declared} bytes, past the cap of ${limit}`, declared)
      throw new Error(`response of ${declared} bytes refused (cap ${limit})`)
    }
    if (!response.body) return response
    let seen = 0
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength
          if (seen > limit) {
            onTooLarge(`the server's HTTP response went past ${limit} bytes`, seen)
            controller.error(new Error(`response past ${limit} bytes refused`))
            return
          }
          controller.enqueue(chunk)
        },
      }),
    )
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers })
  }
}
