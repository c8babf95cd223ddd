import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import { add, compareDecimals, decimalFromStore, type DecimalValue, formatDecimal, multiply, subtract } from '../../../core/decimal.ts'
import { averagePrice } from './average-price.ts'

const dec = decimalFromStore
const str = (value: DecimalValue) => formatDecimal(value)
const ZERO = dec('0')

describe('averagePrice', () => {
  it('is exact when the division terminates', () => {
    // 1 @ 100 + 3 @ 101.5 → 404.5 / 4 = 101.125
    const notional = add(multiply(dec('100'), dec('1')), multiply(dec('101.5'), dec('3')))
    expect(str(averagePrice(notional, dec('4'), 8))).toBe('101.125')
    expect(str(averagePrice(dec('250.5'), dec('0.5'), 2))).toBe('501')
    expect(str(averagePrice(dec('1'), dec('8'), 3))).toBe('0.125')
  })

  it('rounds half-even to maxPlaces otherwise', () => {
    expect(str(averagePrice(dec('10'), dec('3'), 4))).toBe('3.3333')
    expect(str(averagePrice(dec('20'), dec('3'), 4))).toBe('6.6667')
    expect(str(averagePrice(dec('1'), dec('8'), 2))).toBe('0.12')
    expect(str(averagePrice(dec('3'), dec('8'), 2))).toBe('0.38')
    expect(str(averagePrice(dec('0.25'), dec('1'), 1))).toBe('0.2')
    expect(str(averagePrice(dec('0.35'), dec('1'), 1))).toBe('0.4')
    expect(str(averagePrice(dec('5'), dec('2'), 0))).toBe('2')
    expect(str(averagePrice(dec('7'), dec('2'), 0))).toBe('4')
    expect(averagePrice(dec('2'), dec('3'), 2)).toEqual({ coefficient: 67n, scale: 2 })
    expect(() => averagePrice(dec('1'), ZERO, 2)).toThrow(RangeError)
  })

  it('agrees with a rational check: within half a unit in the last place, ties to even, exact when it fits', () => {
    const amount = fc.tuple(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 4 })).map(([c, s]) => ({ coefficient: BigInt(c), scale: s }))
    const abs = (v: DecimalValue): DecimalValue => (v.coefficient < 0n ? { ...v, coefficient: -v.coefficient } : v)
    fc.assert(
      fc.property(amount, amount, fc.integer({ min: 0, max: 6 }), (notional, filled, places) => {
        const avg = averagePrice(notional, filled, places)
        expect(avg.scale).toBe(places)
        // |avg − N/F| ≤ ½·10^-places  ⇔  2·10^places·|avg·F − N| ≤ F
        const error = abs(subtract(multiply(avg, filled), notional))
        const scaled = multiply(error, { coefficient: 2n * 10n ** BigInt(places), scale: 0 })
        const side = compareDecimals(scaled, filled)
        expect(side).toBeLessThanOrEqual(0)
        if (side === 0) expect(avg.coefficient % 2n).toBe(0n)
        // N/F has at most `places` digits ⇔ N·10^(sF+places) is a multiple of F·10^sN; then no rounding at all.
        const fits = (notional.coefficient * 10n ** BigInt(filled.scale + places)) % (filled.coefficient * 10n ** BigInt(notional.scale)) === 0n
        if (fits) expect(error.coefficient).toBe(0n)
      }),
      { numRuns: 300 },
    )
  })
})
