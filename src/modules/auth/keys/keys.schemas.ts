import { z } from 'zod'

/** One public signing key (RFC 8037 OKP key). */
const publicJwk = z
  .object({
    kty: z.literal('OKP'),
    crv: z.literal('Ed25519'),
    x: z.string().meta({ description: 'The public key, base64url.' }),
    kid: z.string().meta({ description: 'Key id, the `kid` of token headers (the JWK thumbprint).' }),
    alg: z.literal('EdDSA'),
    use: z.literal('sig'),
  })
  .meta({ id: 'PublicJwk' })

export const jwksBody = z.object({ keys: z.array(publicJwk) }).meta({ id: 'Jwks' })
