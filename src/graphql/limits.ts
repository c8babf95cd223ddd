import {
  type ASTVisitor,
  type DocumentNode,
  type ExecutionResult,
  getIntrospectionQuery,
  getOperationAST,
  GraphQLError,
  type GraphQLSchema,
  NoSchemaIntrospectionCustomRule,
  parse,
  type ParseOptions,
  type Source,
  type ValidationContext,
  type ValidationRule,
} from 'graphql'
import type { Plugin } from 'graphql-yoga'

import type { Config } from '../core/config.ts'
import { AppError, toAppError } from '../core/errors.ts'
import { duplicateKeys, firstOutOfBounds, isJsonText, MAX_JSON_DEPTH, MAX_JSON_KEYS, MAX_JSON_KEYS_PER_OBJECT } from '../http/json-body.ts'
import { MAX_BODY_BYTES, readLimited } from '../http/request-body.ts'
import { errorResponse } from '../http/responses.ts'
import { documentForm } from './answer-reuse/document-forms.ts'
import { measureOperation, measureSelection } from './operation-cost.ts'
import { parsedFor } from './parsed-documents.ts'
import { overlapPairs } from './validation-cost.ts'
import { variableErrors } from './variables.ts'

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
  /** Introspection in one operation, in complete introspection queries' worth (see `maxIntrospectionCost`). */
  maxIntrospections: 1,
  /** Pairs of selections the overlapping-fields check may compare in one document (validation-cost.ts). */
  maxOverlapPairs: 2_000,
  /** Documents whose form validated, remembered so that a comment or spacing does not validate them again. */
  validatedForms: 2_000,
  /** Errors a request refused before execution (variables, validation) is answered with. */
  maxRequestErrors: 20,
  /** Characters of such an error's message kept from its start, and from its end, around `…`. */
  messageHead: 1024,
  messageTail: 256,
} as const

export type GraphQLLimits = { [K in keyof typeof GRAPHQL_LIMITS]: number }

/** graphql-js's most complete introspection query, every option on (GraphiQL asks for less). */
export const COMPLETE_INTROSPECTION_QUERY = getIntrospectionQuery({
  descriptions: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
  schemaDescription: true,
  inputValueDeprecation: true,
})

const fullIntrospectionCosts = new WeakMap<GraphQLSchema, number>()

/**
 * The introspection one operation may ask for: `maxIntrospections` times what graphql-js's most
 * complete introspection query (every option on) costs in `schema`, GraphiQL's included.
 */
export function maxIntrospectionCost(schema: GraphQLSchema, limits: GraphQLLimits = GRAPHQL_LIMITS): number {
  let full = fullIntrospectionCosts.get(schema)
  if (full === undefined) {
    full = measureOperation(schema, parse(COMPLETE_INTROSPECTION_QUERY), undefined, limits)?.measure.introspectionCost ?? 0
    fullIntrospectionCosts.set(schema, full)
  }
  return Math.ceil(full * limits.maxIntrospections)
}

/** Depth, alias, directive and cost limits as one validation rule over each operation. */
export function operationLimitsRule(limits: GraphQLLimits = GRAPHQL_LIMITS): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const schema = context.getSchema()
    return {
      OperationDefinition(node) {
        const root =
          node.operation === 'query' ? schema.getQueryType() : node.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType()
        const m = measureSelection(schema, (fragment) => context.getFragment(fragment) ?? undefined, node.selectionSet, root, limits)
        const name = node.name ? `Operation ${node.name.value}` : 'The operation'
        const report = (what: string, value: number, limit: number) =>
          context.reportError(new GraphQLError(`${name} has ${what} ${value}, over the limit of ${limit}`, { nodes: node }))
        if (m.depth > limits.maxDepth) report('a depth of', m.depth, limits.maxDepth)
        if (m.aliases > limits.maxAliases) report('aliases:', m.aliases, limits.maxAliases)
        if (m.directives > limits.maxDirectives) report('directives:', m.directives, limits.maxDirectives)
        // Introspection is held to its own limit: it costs by what it returns, and a complete one costs more than maxCost.
        const cost = Math.round(m.cost - m.introspectionCost)
        if (node.operation === 'subscription') {
          if (cost > limits.maxEventCost) report('a cost per event of', cost, limits.maxEventCost)
        } else if (cost > limits.maxCost) report('a cost of', cost, limits.maxCost)
        const maxIntrospection = maxIntrospectionCost(schema, limits)
        const introspectionCost = Math.ceil(m.introspectionCost)
        if (introspectionCost > maxIntrospection) report('an introspection cost of', introspectionCost, maxIntrospection)
      },
    }
  }
}

/** graphql-js's parse, stopping past `maxTokens` tokens. */
export const parseBounded = (source: string | Source, options?: ParseOptions): DocumentNode =>
  parse(source, { ...options, maxTokens: GRAPHQL_LIMITS.maxTokens })

/** The bounded errors of a request's variables (variables.ts), or undefined when they coerce. */
function requestVariableErrors(args: { schema: GraphQLSchema; document: DocumentNode; operationName?: string | null; variableValues?: unknown }) {
  const operation = getOperationAST(args.document, args.operationName ?? undefined)
  // Without one operation graphql-js answers its own error.
  if (!operation) return undefined
  return variableErrors(args.schema, operation, args.variableValues as Record<string, unknown> | undefined, GRAPHQL_LIMITS.maxRequestErrors).errors
}

/** A set of at most `size` strings, the oldest forgotten first. */
class BoundedSet {
  readonly #items = new Set<string>()
  constructor(private readonly size: number) {}
  has(item: string): boolean {
    return this.#items.has(item)
  }
  add(item: string): void {
    if (this.#items.size >= this.size) this.#items.delete(this.#items.values().next().value!)
    this.#items.add(item)
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
    const parsed = JSON.parse(text) as unknown
    refuseDuplicateKeys(text)
    return parsed
  }
}

/**
 * JSON with a key twice in one object is refused, as REST bodies are (src/http/json-body.ts): the
 * last would win, so `"side":"sell","side":"buy"` in a variable would place a buy. 400 BAD_REQUEST,
 * naming where (cut to 200 characters). `text` is valid JSON already bounded by firstOutOfBounds.
 */
export function refuseDuplicateKeys(text: string, where: string[] = []): void {
  const [first] = duplicateKeys(text)
  if (!first) return
  const path = [...where, ...first].map((part) => (typeof part === 'number' ? `[${part}]` : JSON.stringify(part))).join('.')
  const message = `Request JSON has a key twice in one object: ${path.length <= 160 ? path : `${path.slice(0, 159)}…`}`
  throw new GraphQLError(message, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } })
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
export function graphqlLimitsPlugin(config: Pick<Config, 'graphqlIntrospection'>, validated: () => void = () => {}): Plugin {
  const rules: ValidationRule[] = [operationLimitsRule()]
  const validForms = new BoundedSet(GRAPHQL_LIMITS.validatedForms)
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
        else {
          // GET's JSON parameters too (the URL is bounded by the header limit).
          const params = new URL(parsed.url).searchParams
          for (const name of ['variables', 'extensions']) {
            const text = params.get(name)
            if (text && firstOutOfBounds(text) === undefined && isJsonText(text)) refuseDuplicateKeys(text, [name])
          }
        }
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
    onParse({ setParseFn, context }) {
      const request = (context as { request?: object }).request
      setParseFn((source, options) => parsedFor(request, typeof source === 'string' ? source : source.body) ?? parseBounded(source, options))
    },
    onValidate({ params, addValidationRule, setResult }) {
      // First, and cheap: a document too costly to validate is refused before any more work.
      if (overlapPairs(params.documentAST, GRAPHQL_LIMITS.maxOverlapPairs) > GRAPHQL_LIMITS.maxOverlapPairs) {
        const message = `The document repeats fields too often to validate: over ${GRAPHQL_LIMITS.maxOverlapPairs} pairs of fields of one name or of fragments to compare`
        return setResult([new GraphQLError(message, { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })])
      }
      const text = params.documentAST.loc?.source.body
      const form = text === undefined ? undefined : documentForm(text, GRAPHQL_LIMITS.maxTokens)?.key
      // A document of a form that validated validates alike (document-forms.ts): skip the work.
      if (form !== undefined && validForms.has(form)) return setResult([])
      for (const rule of rules) addValidationRule(rule)
      validated()
      return ({ valid }) => {
        if (valid && form !== undefined) validForms.add(form)
      }
    },
    // Variables are checked, bounded, before graphql-js coerces them (variables.ts).
    onExecute({ args, setResultAndStopExecution }) {
      const errors = requestVariableErrors(args)
      if (errors) setResultAndStopExecution({ errors })
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const errors = requestVariableErrors(args)
      if (errors) setResultAndStopExecution({ errors })
    },
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result) return
      const bounded = boundedRequestErrors(result)
      if (bounded) setResult(bounded)
    },
  }
}
