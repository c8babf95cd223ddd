import {
  type ASTNode,
  type DocumentNode,
  getNamedType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  isInterfaceType,
  isObjectType,
  isUnionType,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql'

/**
 * A field's declaration (its Pothos `extensions`) that its value is catalog data: it reads nothing
 * but the catalog (CatalogSource), so a result made of such fields holds while the catalog's
 * generation does. On a root field it declares too that the field's only check is the catalog's
 * read scope (CatalogSource.readScope), which is all a reused answer checks. Declared where the
 * field is defined, so that a field added to a catalog type cannot fall off answer reuse, or onto
 * it, unnoticed (docs/performance.md, "What was done").
 */
export const CATALOG_DATA = { catalogData: true } as const

/** A field's declaration that its value is not catalog data (a market's live book, trades, ticker). */
export const NOT_CATALOG_DATA = { catalogData: false } as const

const isCatalogData = (field: GraphQLField<unknown, unknown> | null | undefined) => field?.extensions?.catalogData === true

/**
 * Whether `document` is one query reading only the catalog — only fields declared CATALOG_DATA —
 * so that its result depends on the catalog, its variables and nothing else, once the caller holds
 * the catalog's read scope. Anything else (mutations, introspection, a second operation, a field
 * without the declaration) is not. A root selection under `@skip`/`@include` is not either: whether
 * its resolver, and so the authorisation, runs would then depend on the variables.
 */
export function readsOnlyCatalog(schema: GraphQLSchema, document: DocumentNode): boolean {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION)
  if (operations.length !== 1 || operations[0]!.operation !== 'query' || operations[0]!.directives?.length) return false
  const queryType = schema.getQueryType()
  const typeInfo = new TypeInfo(schema)
  let catalogOnly = true
  let rootFields = 0
  const atRoot = (node: ASTNode & { directives?: readonly unknown[] }) => {
    if (typeInfo.getParentType() === queryType && node.directives?.length) catalogOnly = false
  }
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        atRoot(node)
        if (node.name.value === '__typename') return
        if (!isCatalogData(typeInfo.getFieldDef())) catalogOnly = false
        else if (typeInfo.getParentType() === queryType) rootFields++
      },
      InlineFragment: atRoot,
      FragmentSpread: atRoot,
    }),
  )
  return catalogOnly && rootFields > 0
}

/**
 * Every field a catalog answer could select without a declaration either way: the fields of each
 * type reachable from the root fields declared CATALOG_DATA through fields declared so, as
 * `Type.field`. Empty when every such field says whether it is catalog data.
 */
export function undeclaredCatalogFields(schema: GraphQLSchema): string[] {
  const undeclared: string[] = []
  const seen = new Set<GraphQLNamedType>()
  const queue: GraphQLNamedType[] = []
  const reach = (type: GraphQLNamedType) => {
    if (seen.has(type)) return
    seen.add(type)
    queue.push(type)
  }
  const queryType = schema.getQueryType()
  for (const field of Object.values(queryType?.getFields() ?? {})) if (isCatalogData(field)) reach(getNamedType(field.type))
  for (let type = queue.shift(); type; type = queue.shift()) {
    if (isUnionType(type)) type.getTypes().forEach(reach)
    if (!isObjectType(type) && !isInterfaceType(type)) continue
    for (const field of Object.values(type.getFields())) {
      if (typeof field.extensions?.catalogData !== 'boolean') undeclared.push(`${type.name}.${field.name}`)
      else if (isCatalogData(field)) reach(getNamedType(field.type))
    }
  }
  return undeclared
}
