import DataLoader from 'dataloader'

/**
 * A list field under a list (`Order.fills`, `Symbol.orderBook`, `Symbol.trades`) loaded for every
 * parent of a response in one statement per argument value, never one per parent
 * (docs/operations.md, "Abuse limits"). One loader per request context and argument; results are
 * not kept, because a subscription's context lives for all its events and each must read afresh.
 */
export function batchedByArgument<C extends object, K, V, A extends string | number>(
  load: (keys: readonly K[], context: C, argument: A) => Promise<ReadonlyMap<K, V>>,
  missing: V,
): (context: C, argument: A) => DataLoader<K, V> {
  const loaders = new WeakMap<C, Map<A, DataLoader<K, V>>>()
  return (context, argument) => {
    let perArgument = loaders.get(context)
    if (!perArgument) loaders.set(context, (perArgument = new Map()))
    let loader = perArgument.get(argument)
    if (!loader) {
      loader = new DataLoader<K, V>(
        async (keys) => {
          const found = await load([...new Set(keys)], context, argument)
          return keys.map((key) => found.get(key) ?? missing)
        },
        { cache: false },
      )
      perArgument.set(argument, loader)
    }
    return loader
  }
}
