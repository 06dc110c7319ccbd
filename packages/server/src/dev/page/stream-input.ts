/**
 * The partial arguments a host streams while the model is still writing a tool call: each
 * snapshot is valid ("healed") JSON that grows toward `args` — keys appear one by one and long
 * strings arrive in a few pieces. The last snapshot equals `args`.
 */
export function partialSnapshots(args: Record<string, unknown>, piecesPerString = 3): Record<string, unknown>[] {
  const snapshots: Record<string, unknown>[] = []
  const built: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(args)) {
    if (typeof value === 'string' && value.length > piecesPerString) {
      const step = Math.ceil(value.length / piecesPerString)
      for (let end = step; end < value.length; end += step) snapshots.push({ ...built, [key]: value.slice(0, end) })
    }
    built[key] = value
    snapshots.push({ ...built })
  }
  return snapshots
}
