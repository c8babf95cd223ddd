import {
  type ASTVisitor,
  type ExecutionResult,
  type FieldNode,
  getNamedType,
  getNullableType,
  GraphQLError,
  type GraphQLField,
  type GraphQLNamedType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  NoSchemaIntrospectionCustomRule,
  parse,
  SchemaMetaFieldDef,
  type SelectionSetNode,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  type ValidationContext,
  type ValidationRule,
} from 'graphql'
import type { Plugin } from 'graphql-yoga'

import type { Config } from '../core/config.ts'
import { AppError, toAppError } from '../core/errors.ts'
import { firstOutOfBounds, MAX_JSON_DEPTH, MAX_JSON_KEYS, MAX_JSON_KEYS_PER_OBJECT } from '../http/json-body.ts'
import { MAX_BODY_BYTES, readLimited } from '../http/request-body.ts'
import { errorResponse } from '../http/responses.ts'

/**
 * Limits that stop abusive GraphQL documents before any resolver runs (docs/operations.md, "Abuse limits"). The cost of a
 * document is one point per field, where a field taking `limit`, `first` or `depth` multiplies the
 * cost of what it selects by that many items: the literal value, or the argument's maximum when it
 * is a variable or left out (lists default to and cap at 100). A list under a list so counts per
 * parent: `orders(limit: 100) { items { fills { uid } } }` is 100 orders × 100 fills. Introspection
 * is exempt from the depth limit (GraphiQL's own query is 15 deep) and bounded by cost instead,
 * each of its lists counting 5 items: its types nest into each other without end. GraphiQL's query
 * costs ~9,000. A subscription's selection runs again for every event, so it is held to
 * `maxEventCost`: every scalar of an OrderEvent with its order's market costs 81, while a list
 * under an event at its default size (100) does not fit.
 */
export const GRAPHQL_LIMITS = {
  /** Nesting of fields: `{ orders { items { symbol } } }` is 3. */
  maxDepth: 10,
  /** Aliased fields in one operation, counted through fragments as executed. */
  maxAliases: 30,
  /** Directives in one operation, counted through fragments as executed. */
  maxDirectives: 50,
  maxCost: 20_000,
  /** The cost of a subscription's selection, which runs once per event. */
  maxEventCost: 100,
  /** Lexical tokens in a document; parsing stops beyond it (it also bounds validation work). */
  maxTokens: 5_000,
  /** Items assumed for a list argument that is a variable or left out. */
  listSize: 100,
  /** Items assumed for each list of the introspection types (types, fields, args, ...). */
  introspectionListSize: 5,
  /** Errors a request refused before execution (variables, validation) is answered with. */
  maxRequestErrors: 20,
  /** Characters of such an error's message kept from its start, and from its end, around `…`. */
  messageHead: 1024,
  messageTail: 256,
} as const

export type GraphQLLimits = { [K in keyof typeof GRAPHQL_LIMITS]: number }

const INTROSPECTION_ROOTS = new Set(['__schema', '__type'])
const META_FIELDS: Record<string, GraphQLField<unknown, unknown> | undefined> = {
  __schema: SchemaMetaFieldDef,
  __type: TypeMetaFieldDef,
  __typename: TypeNameMetaFieldDef,
}

interface Measure {
  depth: number
  aliases: number
  directives: number
  cost: number
}

const ZERO: Measure = { depth: 0, aliases: 0, directives: 0, cost: 0 }
const LIST_ARGUMENTS = ['limit', 'first', 'depth']
// Keeps arithmetic finite whatever the document multiplies.
const COST_CAP = 1e12

/** Depth, alias, directive and cost limits as one validation rule over each operation. */
export function operationLimitsRule(limits: GraphQLLimits = GRAPHQL_LIMITS): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const schema = context.getSchema()
    const fragmentMeasures = new Map<string, Measure>()
    const inProgress = new Set<string>()

    const fieldsOf = (type: GraphQLNamedType | null | undefined) => (type && (isObjectType(type) || isInterfaceType(type)) ? type.getFields() : undefined)

    const multiplier = (node: FieldNode, def: GraphQLField<unknown, unknown> | undefined, parent: GraphQLNamedType | null | undefined): number => {
      for (const name of LIST_ARGUMENTS) {
        const arg = node.arguments?.find((a) => a.name.value === name)
        if (arg?.value.kind === Kind.INT) return Math.max(1, Math.min(Number(arg.value.value), COST_CAP))
        if (arg || def?.args.some((a) => a.name === name)) return limits.listSize
      }
      // Introspection lists nest into each other (`types { fields { type { fields ... } } }`).
      if (def && parent?.name.startsWith('__') && isListType(getNullableType(def.type))) return limits.introspectionListSize
      return 1
    }

    const measure = (selectionSet: SelectionSetNode, parent: GraphQLNamedType | null | undefined): Measure => {
      const total = { ...ZERO }
      const add = (m: Measure) => {
        total.aliases += m.aliases
        total.directives += m.directives
        total.cost = Math.min(COST_CAP, total.cost + m.cost)
        total.depth = Math.max(total.depth, m.depth)
      }
      for (const selection of selectionSet.selections) {
        total.directives += selection.directives?.length ?? 0
        if (selection.kind === Kind.FIELD) {
          const def = META_FIELDS[selection.name.value] ?? fieldsOf(parent)?.[selection.name.value]
          const child = selection.selectionSet ? measure(selection.selectionSet, def ? getNamedType(def.type) : undefined) : ZERO
          add({
            // Introspection documents (GraphiQL's is 15 deep) are bounded by their cost instead.
            depth: INTROSPECTION_ROOTS.has(selection.name.value) ? 1 : child.depth + 1,
            aliases: child.aliases + (selection.alias ? 1 : 0),
            directives: child.directives,
            cost: 1 + multiplier(selection, def, parent) * child.cost,
          })
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent
          add(measure(selection.selectionSet, type))
        } else {
          const name = selection.name.value
          let m = fragmentMeasures.get(name)
          if (!m) {
            const fragment = context.getFragment(name)
            // Unknown and cyclic fragments are reported by the standard rules; they cost nothing here.
            if (!fragment || inProgress.has(name)) continue
            inProgress.add(name)
            m = measure(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value))
            inProgress.delete(name)
            fragmentMeasures.set(name, m)
          }
          add(m)
        }
      }
      return total
    }

    return {
      OperationDefinition(node) {
        const root =
          node.operation === 'query' ? schema.getQueryType() : node.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType()
        const m = measure(node.selectionSet, root)
        const name = node.name ? `Operation ${node.name.value}` : 'The operation'
        const report = (what: string, value: number, limit: number) =>
          context.reportError(new GraphQLError(`${name} has ${what} ${value}, over the limit of ${limit}`, { nodes: node }))
        if (m.depth > limits.maxDepth) report('a depth of', m.depth, limits.maxDepth)
        if (m.aliases > limits.maxAliases) report('aliases:', m.aliases, limits.maxAliases)
        if (m.directives > limits.maxDirectives) report('directives:', m.directives, limits.maxDirectives)
        if (node.operation === 'subscription') {
          if (m.cost > limits.maxEventCost) report('a cost per event of', m.cost, limits.maxEventCost)
        } else if (m.cost > limits.maxCost) report('a cost of', m.cost, limits.maxCost)
      },
    }
  }
}

const JSON_BOUND_MESSAGES = {
  depth: `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`,
  keysPerObject: `Request body has an object with more than ${MAX_JSON_KEYS_PER_OBJECT} keys`,
  keys: `Request body has more than ${MAX_JSON_KEYS} keys`,
} as const

/**
 * JSON nested deeper than MAX_JSON_DEPTH, or with more keys than MAX_JSON_KEYS_PER_OBJECT in one
 * object or MAX_JSON_KEYS in all, is refused before JSON.parse sees it, as on the REST face:
 * parsing half a million nested arrays or 100,000 keys alone holds the event loop for a tenth of a
 * second, and everything after it (variable coercion, error rendering) walks it again. One linear
 * pass over the text Yoga's JSON parser would have read anyway.
 */
function boundJson(request: Request): void {
  request.json = async () => {
    const text = await request.text()
    const breach = firstOutOfBounds(text)
    if (breach !== undefined) {
      throw new GraphQLError(JSON_BOUND_MESSAGES[breach.bound], { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } })
    }
    return JSON.parse(text) as unknown
  }
}

/**
 * A request refused before it ran (its variables or its document) is told about its first
 * `maxRequestErrors` errors, each message cut around `…`: graphql-js reports every unknown field of
 * a variable with the whole value printed in the message, 50 times over for 1,000 unknown keys.
 */
function boundedRequestErrors(result: ExecutionResult, limits: GraphQLLimits = GRAPHQL_LIMITS): ExecutionResult | undefined {
  const errors = result.errors
  if ('data' in result || !errors) return undefined
  const longest = limits.messageHead + limits.messageTail + 1
  if (errors.length <= limits.maxRequestErrors && errors.every((e) => e.message.length <= longest)) return undefined
  return {
    ...result,
    errors: errors.slice(0, limits.maxRequestErrors).map((e) =>
      e.message.length <= longest
        ? e
        : new GraphQLError(`${e.message.slice(0, limits.messageHead)}…${e.message.slice(-limits.messageTail)}`, {
            nodes: e.nodes,
            source: e.source,
            positions: e.positions,
            path: e.path,
            originalError: e.originalError,
            extensions: e.extensions,
          }),
    ),
  }
}

/**
 * The GraphQL abuse limits as a Yoga plugin: request bodies over 1 MiB answer 413 with the REST
 * error body (as every face does), JSON bodies too deep or too broad 400; documents over the token
 * limit fail to parse; the operation limits and, when `GRAPHQL_INTROSPECTION` is false, a ban on
 * `__schema`/`__type` run as validation rules; a request refused before it runs gets a bounded
 * list of errors.
 */
export function graphqlLimitsPlugin(config: Pick<Config, 'graphqlIntrospection'>): Plugin {
  const rules: ValidationRule[] = [operationLimitsRule()]
  if (!config.graphqlIntrospection) rules.push(NoSchemaIntrospectionCustomRule)
  return {
    onRequestParse({ request, requestParser, setRequestParser, endResponse, fetchAPI }) {
      const length = request.headers.get('content-length')
      if (length !== null && Number(length) > MAX_BODY_BYTES) return endResponse(errorResponse(new AppError('payload_too_large')))
      if (!requestParser) return
      setRequestParser(async (req) => {
        let parsed = req
        // Bodies without a length (chunked) are read up to the limit before the parser sees them;
        // one with a length was checked above, and Node's parser delivers no more than it says.
        if (req.body && req.headers.get('content-length') === null) {
          let bytes: Uint8Array
          try {
            bytes = await readLimited(req)
          } catch (error) {
            return errorResponse(toAppError(error))
          }
          parsed = new fetchAPI.Request(req.url, { method: req.method, headers: req.headers, body: bytes as Uint8Array<ArrayBuffer> })
        }
        if (parsed.method === 'POST') boundJson(parsed)
        try {
          return await requestParser(parsed)
        } catch (error) {
          // Yoga's GET and form parsers let JSON.parse errors of `variables`/`extensions` escape as 500s.
          if (error instanceof GraphQLError) throw error
          throw new GraphQLError('Request parameters are malformed: variables and extensions must be JSON objects', {
            extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
          })
        }
      })
    },
    onParse({ setParseFn }) {
      setParseFn((source, options) => parse(source, { ...options, maxTokens: GRAPHQL_LIMITS.maxTokens }))
    },
    onValidate({ addValidationRule }) {
      for (const rule of rules) addValidationRule(rule)
    },
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result) return
      const bounded = boundedRequestErrors(result)
      if (bounded) setResult(bounded)
    },
  }
}
