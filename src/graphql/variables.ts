import {
  coerceInputValue,
  GraphQLError,
  type GraphQLErrorOptions,
  type GraphQLSchema,
  isInputType,
  isNonNullType,
  type OperationDefinitionNode,
  print,
  typeFromAST,
} from 'graphql'

/** At most this many variable errors are reported; coercion stops at the next one. */
export const MAX_VARIABLE_ERRORS = 20
/** A variable error's message is cut to this many characters. */
export const MAX_VARIABLE_MESSAGE = 200
// Characters of an invalid value (a scalar's JSON) quoted in a message.
const MAX_QUOTED_VALUE = 40

/** Stops coercion once enough errors are known. */
class Enough extends Error {}

export type VariablesVerdict = { errors: readonly GraphQLError[] } | { errors?: undefined }

/**
 * The errors of `inputs` as variables of `operation`, as graphql-js's `getVariableValues` finds
 * them, but bounded: at most `maxErrors`, each message at most MAX_VARIABLE_MESSAGE characters,
 * and an invalid value is never printed whole. graphql-js prints the whole value in every error
 * (an object with 999 unknown 900-character keys is ~0.9 MB printed 999 times: seconds of loop and
 * a gigabyte), so a request's variables are checked here before graphql-js coerces them
 * (docs/operations.md, "Abuse limits"). The errors carry `extensions.code: BAD_USER_INPUT`.
 */
export function variableErrors(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  inputs: Readonly<Record<string, unknown>> | null | undefined,
  maxErrors = MAX_VARIABLE_ERRORS,
): VariablesVerdict {
  const errors: GraphQLError[] = []
  const report = (message: string, node: GraphQLErrorOptions) => {
    errors.push(variableError(message, node))
    if (errors.length >= maxErrors) throw new Enough()
  }
  const values = inputs ?? {}
  try {
    for (const definition of operation.variableDefinitions ?? []) {
      const name = definition.variable.name.value
      const type = typeFromAST(schema, definition.type)
      if (!isInputType(type)) {
        report(`Variable "$${name}" expected value of type "${print(definition.type)}" which cannot be used as an input type.`, { nodes: definition.type })
        continue
      }
      if (!Object.prototype.hasOwnProperty.call(values, name)) {
        if (!definition.defaultValue && isNonNullType(type))
          report(`Variable "$${name}" of required type "${String(type)}" was not provided.`, { nodes: definition })
        continue
      }
      const value = values[name]
      if (value === null && isNonNullType(type)) {
        report(`Variable "$${name}" of non-null type "${String(type)}" must not be null.`, { nodes: definition })
        continue
      }
      coerceInputValue(value, type, (path, invalid, error) => {
        const at = path.length ? ` at "${name}${path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('')}"` : ''
        report(`Variable "$${name}" got invalid value ${quoted(invalid)}${at}; ${error.message}`, { nodes: definition, originalError: error.originalError })
      })
    }
  } catch (error) {
    if (!(error instanceof Enough)) throw error
  }
  return errors.length ? { errors } : {}
}

/** Whether `inputs` coerce as `operation`'s variables: stops at the first error. */
export function variablesCoerce(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  inputs: Readonly<Record<string, unknown>> | null | undefined,
): boolean {
  return !variableErrors(schema, operation, inputs, 1).errors
}

function variableError(message: string, options: GraphQLErrorOptions): GraphQLError {
  const text = message.length <= MAX_VARIABLE_MESSAGE ? message : `${message.slice(0, MAX_VARIABLE_MESSAGE - 1)}…`
  // HTTP 400 whatever the Accept header, as Yoga's executor answers variables that do not coerce (docs/api.md, "GraphQL errors and HTTP statuses").
  return new GraphQLError(text, { ...options, extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } })
}

/** A short rendering of an invalid value: a scalar's JSON (cut), else only what it is. */
function quoted(value: unknown): string {
  if (value === undefined) return 'undefined'
  if (value === null || typeof value !== 'object') {
    const json = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? JSON.stringify(value) : String(value)
    return json.length <= MAX_QUOTED_VALUE ? json : `${json.slice(0, MAX_QUOTED_VALUE - 1)}…`
  }
  return Array.isArray(value) ? `a list of ${value.length}` : 'an object'
}
