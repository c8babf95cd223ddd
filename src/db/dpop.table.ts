import type { Timestamp } from './column-types.ts'

/** DPoP proofs seen, kept until they could no longer be accepted (docs/dpop.md, "Replays"). */
export interface DpopProofTable {
  /** RFC 7638 thumbprint of the proof's key. */
  jkt: string
  jti: string
  expires_at: Timestamp
}
