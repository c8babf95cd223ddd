import {
  type DocumentNode,
  type FragmentDefinitionNode,
  getOperationAST,
  type GraphQLSchema,
  Kind,
  type OperationTypeNode,
  type SelectionSetNode,
} from 'graphql'

/** A root field as the executed operation selects it. */
export interface RootField {
  name: string
  /** The alias when there is one: what the result and its errors are keyed by. */
  responseKey: string
}

export interface RootSelection {
  operation: OperationTypeNode | undefined
  fields: RootField[]
}

/**
 * The root fields the executed operation selects, through fragments and inline fragments, each
 * aliased copy on its own (aliases cannot multiply work for free). Fragments are visited once each:
 * the document was validated, so they form no cycle, and a spread repeated costs nothing extra.
 */
export function rootSelection(document: DocumentNode, operationName: string | null | undefined): RootSelection {
  const operation = getOperationAST(document, operationName ?? undefined)
  if (!operation) return { operation: undefined, fields: [] }
  const fragments = new Map<string, FragmentDefinitionNode>()
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition)
  }
  const fields: RootField[] = []
  const seen = new Set<string>()
  const visit = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        fields.push({ name: selection.name.value, responseKey: selection.alias?.value ?? selection.name.value })
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet)
      } else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value)
        const fragment = fragments.get(selection.name.value)
        if (fragment) visit(fragment.selectionSet)
      }
    }
  }
  visit(operation.selectionSet)
  return { operation: operation.operation, fields }
}

/**
 * A root field's declaration (its Pothos `extensions`) that it answers callers without a token:
 * it never asks who the caller is. Every other root field authenticates its caller first, so a
 * request selecting one is counted against its client's API limit; a request selecting none is
 * counted against its address's anonymous limit (docs/operations.md, "Rate limits"). Declared
 * where the field is defined, so a new public field cannot be missed by a list kept elsewhere.
 */
export const ANSWERS_ANONYMOUS = { answersAnonymous: true } as const

const META_FIELDS = new Set(['__schema', '__type', '__typename'])

/** Whether the root field `name` of `operation` answers without authenticating (introspection, or declared `ANSWERS_ANONYMOUS`). */
export function answersAnonymous(schema: GraphQLSchema, operation: OperationTypeNode, name: string): boolean {
  if (META_FIELDS.has(name)) return true
  const root = schema.getRootType(operation)
  return root?.getFields()[name]?.extensions?.answersAnonymous === true
}
