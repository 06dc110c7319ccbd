/** A JSON object as it comes off the wire: keys known, values still to be checked. */
export type JsonObject = Record<string, unknown>

/** True for a plain object (not null, not an array): the shape every JSON-RPC params and result has. */
export const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v)
