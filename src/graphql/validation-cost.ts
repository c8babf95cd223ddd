import { type DocumentNode, type FragmentDefinitionNode, Kind, type SelectionSetNode } from 'graphql'

/**
 * Pairs of selections graphql-js's OverlappingFieldsCanBeMerged rule compares in `document`, as
 * an estimate made in one pass, stopping once it passes `limit`. The rule compares, in every
 * selection set, each two fields of one response name (through inline fragments), each field
 * with each fragment spread there, and each two fragments spread there: quadratic in the document,
 * so `{ symbols { … } symbols { … } … }` 700 times took 60–100 ms to validate while within the
 * token limit. A document over `limit` is refused before validation (docs/operations.md, "Abuse
 * limits"); ordinary documents compare a handful of pairs.
 */
export function overlapPairs(document: DocumentNode, limit: number): number {
  const fragments = new Map<string, FragmentDefinitionNode>()
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition)
  let pairs = 0
  const visit = (set: SelectionSetNode) => {
    const names = new Map<string, number>()
    const spreads = new Set<string>()
    let fields = 0
    // The fields graphql-js collects for this set: its own and its inline fragments', not named fragments' (compared as spreads).
    const collect = (inner: SelectionSetNode) => {
      for (const selection of inner.selections) {
        if (selection.kind === Kind.FIELD) {
          const key = selection.alias?.value ?? selection.name.value
          const seen = names.get(key) ?? 0
          names.set(key, seen + 1)
          pairs += seen
          fields++
        } else if (selection.kind === Kind.INLINE_FRAGMENT) collect(selection.selectionSet)
        else spreads.add(selection.name.value)
        if (pairs > limit) return
      }
    }
    collect(set)
    pairs += spreads.size * fields + (spreads.size * (spreads.size - 1)) / 2
    for (const selection of set.selections) {
      if (pairs > limit) return
      if (selection.kind !== Kind.FRAGMENT_SPREAD && selection.selectionSet) visit(selection.selectionSet)
    }
  }
  for (const definition of document.definitions) {
    if (pairs > limit) break
    if (definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION) visit(definition.selectionSet)
  }
  return pairs
}
