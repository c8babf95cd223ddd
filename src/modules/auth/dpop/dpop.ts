import type { DpopRequest } from '../../../core/auth.ts'
import type { Config } from '../../../core/config.ts'
import { accessTokenHash, type CheckedProof, checkProof, invalidDpopProof, normaliseHtu } from './dpop-proof.ts'
import type { ProofReplays } from './proof-replays.ts'

/** The time in whole seconds since the epoch: the wall clock, or a test's. */
type Clock = () => number
const wallClock: Clock = () => Math.floor(Date.now() / 1000)

// A client calls a few paths over and over: the service's own `htu` of a path (a URL parse, more
// than the rest of a proof's claims together; docs/dpop.md, "Cost") is computed once and kept, the
// last 256 paths. It depends on the path alone.
const MAX_REMEMBERED = 256
// Longer paths are normalised each time rather than kept (normaliseHtu refuses over 2048 anyway).
const MAX_REMEMBERED_PATH = 2048

/**
 * DPoP for this service (docs/dpop.md): proofs at login and refresh, which bind the tokens to a
 * key, and on every call with a bound token. `htu` is the request's path under the origin of
 * `PUBLIC_BASE_URL`, the address clients are given, whatever proxies sit in front.
 */
export class Dpop {
  readonly #origin: string
  readonly #skew: number
  readonly #htus = new Map<string, string>()

  constructor(
    private readonly replays: Pick<ProofReplays, 'first'>,
    config: Pick<Config, 'publicBaseUrl' | 'clockSkew'>,
    private readonly now: Clock = wallClock,
  ) {
    this.#origin = new URL(config.publicBaseUrl).origin
    this.#skew = config.clockSkew
  }

  /** The proof of a login or refresh: its key's thumbprint, which must be `jkt` when the refresh token is bound. */
  async proveKey(request: DpopRequest | undefined, jkt?: string): Promise<string> {
    return (await this.#check(request, { jkt })).jkt
  }

  /**
   * The proof of a call with a token bound to `jkt`, also covering `token` (`ath`). A WebSocket's
   * operations stand on the proof its connection gave (`proven`).
   */
  async proveCall(request: DpopRequest | undefined, jkt: string, token: string): Promise<void> {
    if (request?.proven !== undefined && request.proven === jkt) return
    await this.#check(request, { jkt, ath: accessTokenHash(token) })
  }

  async #check(request: DpopRequest | undefined, expected: { jkt?: string | undefined; ath?: string }): Promise<CheckedProof> {
    if (!request) throw invalidDpopProof('DPoP proof is missing')
    const htu = this.#htu(request.url)
    const now = this.now()
    const proof = await checkProof(
      request.proof,
      { htm: request.method, htu, ...(expected.ath === undefined ? {} : { ath: expected.ath }), ...(expected.jkt === undefined ? {} : { jkt: expected.jkt }) },
      now,
      this.#skew,
    )
    // Remembered until its `iat` leaves the window: after that it is refused as stale anyway.
    if (!(await this.replays.first(proof.jkt, proof.jti, proof.iat + this.#skew + 1))) throw invalidDpopProof('DPoP proof jti has already been used')
    return proof
  }

  /** The request's own `htu`: its path (of a path or an absolute URL) under the public origin. */
  #htu(url: string): string {
    const path = url.startsWith('/') ? url.split(/[?#]/, 1)[0]! : safePath(url)
    const htu = (p: string) => normaliseHtu(`${this.#origin}${p}`) ?? `${this.#origin}/`
    return path.length > MAX_REMEMBERED_PATH ? htu(path) : remembered(this.#htus, path, htu)
  }
}

/** `compute(key)`, kept in `map` with the last MAX_REMEMBERED others. */
function remembered(map: Map<string, string>, key: string, compute: (key: string) => string): string {
  let value = map.get(key)
  if (value !== undefined) return value
  value = compute(key)
  if (map.size >= MAX_REMEMBERED) map.delete(map.keys().next().value!)
  map.set(key, value)
  return value
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname
  } catch {
    return '/'
  }
}
