import { type ASTNode, type DocumentNode, type GraphQLSchema, Kind, TypeInfo, visit, visitWithTypeInfo } from 'graphql'

/**
 * The fields that read nothing but the symbol catalog (the symbols and currencies tables), by
 * type. Listed rather than derived: a field added to one of these types is not cacheable until
 * someone adds it here, having checked that it reads only the catalog.
 */
const CATALOG_FIELDS: Readonly<Record<string, ReadonlySet<string>>> = {
  Query: new Set(['symbols', 'symbol']),
  SymbolPage: new Set(['items', 'total', 'offset', 'limit']),
  Symbol: new Set([
    'uid',
    'createdAt',
    'updatedAt',
    'isDeleted',
    'metaData',
    'userId',
    'symbol',
    'pricePrecision',
    'quantityPrecision',
    'minOrderQuantity',
    'tickSize',
    'dailyFluctuationPriceLimitPercent',
    'description',
    'isActive',
    'base',
    'quote',
    'properties',
    'referencePrice',
    'priceBand',
  ]),
  CurrencyProperty: new Set(['name', 'symbol', 'precision', 'icon', 'isCrypto', 'color', 'unitValueIrr']),
  LocalizedName: new Set(['fa', 'en']),
  PriceBand: new Set(['min', 'max']),
}

/**
 * Whether `document` is one query reading only the symbol catalog, so that its result depends on
 * the catalog, its variables and nothing else — once the caller holds `symbols:read`, which every
 * root field it selects requires. Anything else (mutations, introspection, orders, users, a second
 * operation) is not. A root selection under `@skip`/`@include` is not either: whether its
 * resolver, and so the authorisation, runs would then depend on the variables.
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
        const parent = typeInfo.getParentType()
        if (node.name.value === '__typename') return
        if (!parent || !CATALOG_FIELDS[parent.name]?.has(node.name.value)) catalogOnly = false
        else if (parent === queryType) rootFields++
      },
      InlineFragment: atRoot,
      FragmentSpread: atRoot,
    }),
  )
  return catalogOnly && rootFields > 0
}
