import type { CatalogSource } from '../../../../graphql/answer-reuse/catalog-results.ts'
import { SYMBOLS_READ } from '../symbols.ts'
import type { SymbolsCache } from './symbols-cache.ts'

/**
 * The symbol catalog as GraphQL answer reuse sees it: its generation (SymbolsCache's, which moves
 * when any process changes a symbol or currency) and the scope its root fields require. Which
 * fields read it is declared on each field (symbols.graphql.ts, CATALOG_DATA).
 */
export function symbolCatalog(cache: SymbolsCache): CatalogSource {
  return {
    get generation() {
      return cache.generation
    },
    readScope: SYMBOLS_READ,
  }
}
