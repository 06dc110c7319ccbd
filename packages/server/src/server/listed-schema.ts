// The JSON Schema a tool lists, without the `$schema` line zod writes into it. 2020-12 is MCP's
// default dialect, so a spec-following client reads the same thing with or without it; a validator
// in its default draft-07 mode (Ajv's default, used by some hosts) refuses to compile a schema that
// names 2020-12 and marks every result "Invalid". Validation of calls is untouched: it runs through
// the schema's own `~standard.validate`. Each conversion is kept once made: the SDK converts every tool's
// schema again on every tools/list (each request or session has its own server instance), which made
// tools/list the costliest call a flooding user could make; registered schemas never change.
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server'

type Converter = StandardSchemaWithJSON['~standard']['jsonSchema']

/** `schema` as the SDK sees it, its JSON Schema conversions without a top-level `$schema`. */
export function withoutDialectDeclaration(schema: StandardSchemaWithJSON): StandardSchemaWithJSON {
  const standard = schema['~standard']
  const convert = standard.jsonSchema as Converter | undefined
  // A schema that cannot describe itself is the SDK's to reject, with its own message.
  if (!convert) return schema
  const strip = (json: Record<string, unknown>): Record<string, unknown> => {
    const { $schema: _dialect, ...rest } = json
    return rest
  }
  const made = new Map<string, Record<string, unknown>>()
  const once = (io: 'input' | 'output', options: Parameters<Converter['input']>[0]) => {
    const key = `${io}\u0000${JSON.stringify(options ?? {})}`
    let json = made.get(key)
    if (!json) made.set(key, (json = strip(convert[io](options))))
    return json
  }
  const jsonSchema: Converter = {
    input: (options) => once('input', options),
    output: (options) => once('output', options),
  }
  return { '~standard': { ...standard, jsonSchema } } as StandardSchemaWithJSON
}
