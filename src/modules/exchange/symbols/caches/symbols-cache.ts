import type { Page } from '../../../../core/lists.ts'
import { ReloadLoop } from '../../../../core/reload-loop.ts'
import type { Db } from '../../../../db/database.ts'
import type { CurrencyRow } from '../currencies.repository.ts'
import { catalogFingerprint, findLiveSymbols, type SymbolRow } from '../symbols.repository.ts'

/** Every process sees a symbol or currency change within this time (CLI, seed, other processes). */
export const CATALOG_POLL_INTERVAL_MS = 1000
// Distinct list queries kept; the symbol list has few useful variants.
const MAX_ENTRIES = 256
// Whole lists (one per filter) kept apart from the pages sliced from them: 256 distinct pages must
// not push out the list they are all cut from, or paging with variables reads it again and again.
const MAX_WHOLE_LISTS = 32

/** One symbol list answer: the page, its currencies, and once rendered, the REST response bytes. */
export interface CachedSymbolPage {
  page: Page<SymbolRow>
  currencies: ReadonlyMap<string, CurrencyRow>
  /** UTF-8, so each answer is written without encoding or measuring a string again. */
  rest?: Buffer
}

/**
 * The symbol list answers per normalised query, and every symbol by name (the market rules orders
 * are validated against), dropped whenever the catalog's fingerprint changes. An answer computed
 * while the catalog changed is not kept: each fill remembers the generation it started in and is
 * discarded if a change was seen meanwhile. Up to one poll interval stale: whoever acts on a
 * cached symbol must re-check it where it matters (the order insert does, in SQL).
 */
export class SymbolsCache {
  #entries = new Map<string, CachedSymbolPage>()
  #wholeLists = new Map<string, CachedSymbolPage>()
  #markets: Promise<ReadonlyMap<string, SymbolRow>> | undefined
  #fingerprint: string | undefined
  #generation = 0
  readonly #checks = new ReloadLoop(() => this.#checkFingerprint())

  constructor(private readonly db: Db) {}

  get generation(): number {
    return this.#generation
  }

  get(key: string): CachedSymbolPage | undefined {
    return this.#entries.get(key)
  }

  /** Keeps `entry` unless the catalog changed since `generation` was read. */
  set(key: string, entry: CachedSymbolPage, generation: number): void {
    keep(this.#entries, MAX_ENTRIES, key, entry, generation === this.#generation)
  }

  /** Every symbol a filter matches (its key), read once per catalog generation. */
  wholeList(key: string): CachedSymbolPage | undefined {
    return this.#wholeLists.get(key)
  }

  setWholeList(key: string, entry: CachedSymbolPage, generation: number): void {
    keep(this.#wholeLists, MAX_WHOLE_LISTS, key, entry, generation === this.#generation)
  }

  /** Every symbol that is not deleted, by name; read once per catalog generation. */
  markets(): Promise<ReadonlyMap<string, SymbolRow>> {
    if (this.#markets) return this.#markets
    const loading = findLiveSymbols(this.db).then((rows) => new Map(rows.map((row) => [row.symbol, row])))
    this.#markets = loading
    // A failed read is not kept; the next caller reads again.
    loading.catch(() => {
      if (this.#markets === loading) this.#markets = undefined
    })
    return loading
  }

  #drop(): void {
    this.#generation++
    this.#entries.clear()
    this.#wholeLists.clear()
    this.#markets = undefined
  }

  /** Reads the fingerprint; a change drops every entry. */
  check(): Promise<void> {
    return this.#checks.run()
  }

  /** Checks every `intervalMs` until `stop()`; a failed check keeps nothing and is reported. */
  start(intervalMs: number, onError: (error: unknown) => void): void {
    this.#checks.start(intervalMs, (error) => {
      // Unable to tell whether the catalog changed: serve from the database until a check succeeds.
      this.#fingerprint = undefined
      this.#drop()
      onError(error)
    })
  }

  stop(): Promise<void> {
    return this.#checks.stop()
  }

  async #checkFingerprint(): Promise<void> {
    const fingerprint = await catalogFingerprint(this.db)
    if (fingerprint !== this.#fingerprint) {
      this.#fingerprint = fingerprint
      this.#drop()
    }
  }
}

/** Sets `key` in `entries`, the oldest going first beyond `max`; nothing when `current` is false. */
function keep(entries: Map<string, CachedSymbolPage>, max: number, key: string, entry: CachedSymbolPage, current: boolean): void {
  if (!current) return
  if (!entries.has(key) && entries.size >= max) entries.delete(entries.keys().next().value!)
  entries.set(key, entry)
}
