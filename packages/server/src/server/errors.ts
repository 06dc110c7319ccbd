// The server side raises the same DuetError as the view side (see duetkit/protocol for the codes).
// They never cross the wire as such: a view file error inside `resources/read` reaches the client as
// a JSON-RPC error carrying the same message, and tool bodies answer with `toolError`.
import { DuetError } from 'duetkit/protocol'

export { DuetError }

/** Throws `INVALID_OPTION` naming the factory and the option, so a config mistake fails at startup. */
export function invalidOption(where: string, option: string, expected: string): never {
  throw new DuetError('INVALID_OPTION', `${where}: option '${option}' ${expected}`, { option })
}
