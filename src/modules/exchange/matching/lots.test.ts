import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import { compareDecimals, decimalFromStore, formatDecimal, hasAtMostPlaces, unitOfPlaces } from '../../../core/decimal.ts'
import { largestFittingLot } from './lots.ts'

const dec = decimalFromStore
/** Fits while the quantity is at most `limit`. */
const upTo = (limit: string) => (quantity: ReturnType<typeof dec>) => compareDecimals(quantity, dec(limit)) <= 0

describe('largestFittingLot', () => {
  it('rounds down to the step of the quantity precision, negative precisions meaning lots of 10, 100, …', () => {
    expect(formatDecimal(largestFittingLot(dec('2000'), -2, upTo('997')))).toBe('900')
    expect(formatDecimal(largestFittingLot(dec('2000'), -1, upTo('997')))).toBe('990')
    expect(formatDecimal(largestFittingLot(dec('2000'), 0, upTo('997.9')))).toBe('997')
    expect(formatDecimal(largestFittingLot(dec('4'), 2, upTo('2.419')))).toBe('2.41')
    expect(formatDecimal(largestFittingLot(dec('1000'), -2, upTo('97')))).toBe('0')
    // The whole remainder when it fits.
    expect(formatDecimal(largestFittingLot(dec('1100'), -2, upTo('5000')))).toBe('1100')
  })

  it('answers the largest fitting multiple of the step, never above the limit', () => {
    fc.assert(
      fc.property(fc.integer({ min: -3, max: 4 }), fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 2_000_000 }), (p, lots, limit) => {
        const step = unitOfPlaces(p)
        const left = { coefficient: step.coefficient * BigInt(lots), scale: step.scale }
        const limitValue = { coefficient: BigInt(limit), scale: 2 }
        const fits = (q: typeof left) => compareDecimals(q, limitValue) <= 0
        const got = largestFittingLot(left, p, fits)
        expect(hasAtMostPlaces(got, p)).toBe(true)
        expect(fits(got)).toBe(true)
        expect(compareDecimals(got, left)).toBeLessThanOrEqual(0)
        // One more step would not fit, unless all of `left` is taken.
        const next = {
          coefficient: got.coefficient * 10n ** BigInt(Math.max(0, step.scale - got.scale)) + step.coefficient,
          scale: Math.max(got.scale, step.scale),
        }
        if (compareDecimals(got, left) < 0) expect(fits(next)).toBe(false)
      }),
    )
  })
})
