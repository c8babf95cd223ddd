/** A result as Yoga takes it: the data, and the exact JSON to answer with. */
export interface CachedResult {
  data: Record<string, unknown>
  stringify: () => string
}

// Bounds: entries, the JSON kept in all (the data objects take about as much again), one entry.
const MAX_ENTRIES = 256
const MAX_BYTES = 16 * 1024 * 1024
const MAX_ENTRY_BYTES = 2 * 1024 * 1024

/**
 * Bounded results (GraphQL results, recorded answers) that hold while the catalog's generation
 * (CatalogSource) stays the one they were computed in; the oldest go first. A result computed
 * while the catalog changed is not kept.
 */
export class ResultStore<T = CachedResult> {
  #entries = new Map<string, { result: T; bytes: number }>()
  #bytes = 0
  #generation: number

  constructor(private readonly catalog: { readonly generation: number }) {
    this.#generation = catalog.generation
  }

  get(key: string): T | undefined {
    this.#follow()
    return this.#entries.get(key)?.result
  }

  /** Keeps `result` (of `bytes` JSON) unless the catalog changed since `generation` was read. */
  set(key: string, result: T, bytes: number, generation: number): void {
    this.#follow()
    if (generation !== this.#generation || bytes > MAX_ENTRY_BYTES) return
    this.#delete(key)
    while (this.#entries.size >= MAX_ENTRIES || this.#bytes + bytes > MAX_BYTES) this.#delete(this.#entries.keys().next().value!)
    this.#entries.set(key, { result, bytes })
    this.#bytes += bytes
  }

  #follow(): void {
    if (this.catalog.generation === this.#generation) return
    this.#generation = this.catalog.generation
    this.#entries.clear()
    this.#bytes = 0
  }

  #delete(key: string): void {
    const entry = this.#entries.get(key)
    if (!entry) return
    this.#entries.delete(key)
    this.#bytes -= entry.bytes
  }
}
