import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  getNullableType,
  getOperationAST,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type GraphQLType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isObjectType,
  isUnionType,
  isWrappingType,
  Kind,
  type OperationDefinitionNode,
  SchemaMetaFieldDef,
  type SelectionSetNode,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
} from 'graphql'

/** What an operation's selection measures: nesting, aliases, directives, cost, and the part of the cost that is introspection. */
export interface Measure {
  depth: number
  aliases: number
  directives: number
  cost: number
  introspectionCost: number
}

/** The knobs of the measure (GRAPHQL_LIMITS' `listSize`). */
export interface CostOptions {
  /** Items assumed for a list argument that is a variable or left out. */
  listSize: number
}

/** The root fields that introspect the schema. */
export const INTROSPECTION_ROOTS: ReadonlySet<string> = new Set(['__schema', '__type'])
const META_FIELDS: Record<string, GraphQLField<unknown, unknown> | undefined> = {
  __schema: SchemaMetaFieldDef,
  __type: TypeMetaFieldDef,
  __typename: TypeNameMetaFieldDef,
}
const ZERO: Measure = { depth: 0, aliases: 0, directives: 0, cost: 0, introspectionCost: 0 }
const LIST_ARGUMENTS = ['limit', 'first', 'depth']
// Keeps arithmetic finite whatever the document multiplies.
const COST_CAP = 1e12

/**
 * The cost of a document is one point per field, where a field taking `limit`, `first` or `depth`
 * multiplies the cost of what it selects by that many items: the literal value, or the argument's
 * maximum when it is a variable or left out. A list under a list so counts per parent:
 * `orders(limit: 100) { items { fills { uid } } }` is 100 orders × 100 fills. Introspection costs
 * by what it returns: each of its lists counts the items it holds in this schema on average
 * (`types` every type, `fields` the fields per type, `args` the arguments per field…), so a
 * document asking for the schema twice under two aliases costs twice as much
 * (docs/operations.md, "Abuse limits").
 */
export function measureSelection(
  schema: GraphQLSchema,
  fragmentOf: (name: string) => FragmentDefinitionNode | undefined,
  selectionSet: SelectionSetNode,
  parent: GraphQLNamedType | null | undefined,
  options: CostOptions,
): Measure {
  const sizes = introspectionListSizes(schema)
  const fragmentMeasures = new Map<string, Measure>()
  const inProgress = new Set<string>()

  const fieldsOf = (type: GraphQLNamedType | null | undefined) => (type && (isObjectType(type) || isInterfaceType(type)) ? type.getFields() : undefined)

  const multiplier = (node: FieldNode, def: GraphQLField<unknown, unknown> | undefined, type: GraphQLNamedType | null | undefined): number => {
    for (const name of LIST_ARGUMENTS) {
      const arg = node.arguments?.find((a) => a.name.value === name)
      if (arg?.value.kind === Kind.INT) return Math.max(1, Math.min(Number(arg.value.value), COST_CAP))
      if (arg || def?.args.some((a) => a.name === name)) return options.listSize
    }
    if (def && type?.name.startsWith('__') && (isListType(getNullableType(def.type)) || sizes.has(`${type.name}.${def.name}`))) {
      return sizes.get(`${type.name}.${def.name}`) ?? 1
    }
    return 1
  }

  const measure = (set: SelectionSetNode, type: GraphQLNamedType | null | undefined, inIntrospection: boolean): Measure => {
    const total = { ...ZERO }
    const add = (m: Measure) => {
      total.aliases += m.aliases
      total.directives += m.directives
      total.cost = Math.min(COST_CAP, total.cost + m.cost)
      total.introspectionCost = Math.min(COST_CAP, total.introspectionCost + m.introspectionCost)
      total.depth = Math.max(total.depth, m.depth)
    }
    for (const selection of set.selections) {
      total.directives += selection.directives?.length ?? 0
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value
        const def = META_FIELDS[name] ?? fieldsOf(type)?.[name]
        const introspection = inIntrospection || INTROSPECTION_ROOTS.has(name)
        const child = selection.selectionSet ? measure(selection.selectionSet, def ? getNamedType(def.type) : undefined, introspection) : ZERO
        const cost = Math.min(COST_CAP, 1 + multiplier(selection, def, type) * child.cost)
        add({
          // Introspection documents (GraphiQL's is 15 deep) are bounded by their cost instead.
          depth: INTROSPECTION_ROOTS.has(name) ? 1 : child.depth + 1,
          aliases: child.aliases + (selection.alias ? 1 : 0),
          directives: child.directives,
          cost,
          introspectionCost: introspection ? cost : 0,
        })
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        add(measure(selection.selectionSet, selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type, inIntrospection))
      } else {
        const name = selection.name.value
        const key = `${name}\n${inIntrospection}`
        let m = fragmentMeasures.get(key)
        if (!m) {
          const fragment = fragmentOf(name)
          // Unknown and cyclic fragments are reported by the standard rules; they cost nothing here.
          if (!fragment || inProgress.has(name)) continue
          inProgress.add(name)
          m = measure(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value), inIntrospection)
          inProgress.delete(name)
          fragmentMeasures.set(key, m)
        }
        add(m)
      }
    }
    return total
  }
  return measure(selectionSet, parent, false)
}

/** The measure of the operation a request executes (undefined when the document has no such operation). */
export function measureOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  options: CostOptions,
): { operation: OperationDefinitionNode; measure: Measure } | undefined {
  const operation = getOperationAST(document, operationName ?? undefined)
  if (!operation) return undefined
  const fragments = new Map<string, FragmentDefinitionNode>()
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition)
  const root = schema.getRootType(operation.operation)
  return { operation, measure: measureSelection(schema, (name) => fragments.get(name), operation.selectionSet, root, options) }
}

const listSizes = new WeakMap<GraphQLSchema, ReadonlyMap<string, number>>()

/**
 * How many items each list of the introspection types holds in `schema`, on average per parent
 * (`__Type.fields`: the fields of all types over the number of types), at least 1.
 */
export function introspectionListSizes(schema: GraphQLSchema): ReadonlyMap<string, number> {
  let sizes = listSizes.get(schema)
  if (sizes) return sizes
  const types = Object.values(schema.getTypeMap())
  const directives = schema.getDirectives()
  let fields = 0
  let args = 0
  let inputFields = 0
  let enumValues = 0
  let interfaces = 0
  let possibleTypes = 0
  // Type references (of fields, arguments, input fields) and their wrappers (`[T!]!` is three).
  let references = 0
  let wrappers = 0
  const refer = (ref: GraphQLType) => {
    references++
    for (let t = ref; isWrappingType(t); t = t.ofType) wrappers++
  }
  for (const type of types) {
    if (isObjectType(type) || isInterfaceType(type)) {
      const own = Object.values(type.getFields())
      fields += own.length
      for (const field of own) {
        args += field.args.length
        refer(field.type)
        for (const arg of field.args) refer(arg.type)
      }
      interfaces += type.getInterfaces().length
      if (isInterfaceType(type)) possibleTypes += schema.getPossibleTypes(type).length
    } else if (isInputObjectType(type)) {
      const own = Object.values(type.getFields())
      inputFields += own.length
      for (const field of own) refer(field.type)
    } else if (isEnumType(type)) enumValues += type.getValues().length
    else if (isUnionType(type)) possibleTypes += type.getTypes().length
  }
  const perType = (n: number) => Math.max(1, Math.ceil(n / Math.max(1, types.length)))
  const directiveArgs = directives.reduce((n, d) => n + d.args.length, 0)
  sizes = new Map([
    ['__Schema.types', Math.max(1, types.length)],
    ['__Schema.directives', Math.max(1, directives.length)],
    ['__Type.fields', perType(fields)],
    ['__Type.inputFields', perType(inputFields)],
    ['__Type.enumValues', perType(enumValues)],
    ['__Type.interfaces', perType(interfaces)],
    ['__Type.possibleTypes', perType(possibleTypes)],
    ['__Field.args', Math.max(1, Math.ceil(args / Math.max(1, fields)))],
    ['__Directive.args', Math.max(1, Math.ceil(directiveArgs / Math.max(1, directives.length)))],
    // Not a list: the share of `__Type`s reached through a reference that have an `ofType` (the
    // wrappers). graphql-js's introspection query follows `ofType` seven deep, but below a named
    // type each level answers null and costs nothing: counted whole, those chains made the
    // complete query look far costlier than what it executes, and so let partial queries that
    // walk every field many times under aliases through the limit derived from it.
    ['__Type.ofType', wrappers / Math.max(1, references + wrappers)],
  ])
  listSizes.set(schema, sizes)
  return sizes
}
