/**
 * The structural shape of a Standard Schema v1 validator (zod, valibot, arktype all carry it),
 * declared here so the view bundle needs no schema library.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>
    readonly types?: { readonly input: Input; readonly output: Output }
    /** Standard JSON Schema extension (zod 4.2+, valibot, arktype): a JSON Schema for the input. */
    readonly jsonSchema?: { readonly input: (options: { target: string }) => Record<string, unknown> }
  }
}

export type StandardResult<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: ReadonlyArray<StandardIssue> }

export interface StandardIssue {
  readonly message: string
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>
}
