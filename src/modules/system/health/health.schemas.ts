import { z } from 'zod'

/** `GET /healthz`: the process is up. */
export const liveBody = z.object({ status: z.literal('ok') }).meta({ id: 'Liveness', example: { status: 'ok' } })

/** `GET /readyz`: whether the database answers. */
export const readyBody = z.object({ status: z.literal('ok'), database: z.literal('ok') }).meta({ id: 'Ready', example: { status: 'ok', database: 'ok' } })

export const notReadyBody = z
  .object({ status: z.literal('unavailable'), database: z.enum(['unreachable', 'timeout']) })
  .meta({ id: 'NotReady', example: { status: 'unavailable', database: 'unreachable' } })
