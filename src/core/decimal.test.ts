import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import {
  add,
  compareDecimals,
  decimalsEqual,
  type DecimalValue,
  formatDecimal,
  hasAtMostPlaces,
  isMultipleOf,
  multiply,
  normalize,
  parseDecimal,
  priceBand,
  subtract,
  unitOfPlaces,
} from './decimal.ts'

const dec = (text: string): DecimalValue => {
  const value = parseDecimal(text)
  if (!value) throw new Error(`not a decimal: ${text}`)
  return value
}
const str = (value: DecimalValue) => formatDecimal(value)

/** A random decimal as its parts, so tests can build text in many spellings from one value. */
const parts = fc.record({
  negative: fc.boolean(),
  whole: fc.stringMatching(/^[0-9]{1,15}$/),
  fraction: fc.stringMatching(/^[0-9]{0,12}$/),
})
const anyDecimal = parts.map(({ negative, whole, fraction }) => dec(`${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`))
const positiveDecimal = anyDecimal
  .map((d) => ({ coefficient: d.coefficient < 0n ? -d.coefficient : d.coefficient, scale: d.scale }))
  .filter((d) => d.coefficient > 0n)
const precision = fc.integer({ min: -6, max: 10 })

/** The canonical text of a value, computed with string operations only: an oracle independent of bigint scaling. */
function canonicalText(negative: boolean, whole: string, fraction: string): string {
  const w = whole.replace(/^0+(?=\d)/, '')
  const f = fraction.replace(/0+$/, '')
  const body = f ? `${w}.${f}` : w
  return negative && /[1-9]/.test(body) ? `-${body}` : body
}

describe('parseDecimal / formatDecimal', () => {
  it('parses every spelling of a value to the value, and prints it canonically', () => {
    fc.assert(
      fc.property(parts, fc.nat(3), fc.nat(3), fc.boolean(), ({ negative, whole, fraction }, leadingZeros, trailingZeros, plus) => {
        const sign = negative ? '-' : plus ? '+' : ''
        const fractionText = fraction + '0'.repeat(trailingZeros)
        const text = `${sign}${'0'.repeat(leadingZeros)}${whole}${fractionText ? `.${fractionText}` : ''}`
        expect(str(dec(text))).toBe(canonicalText(negative, whole, fraction))
      }),
    )
  })

  it('round-trips: parse(format(x)) equals x, and format is idempotent', () => {
    fc.assert(
      fc.property(anyDecimal, (x) => {
        const printed = str(x)
        expect(decimalsEqual(dec(printed), x)).toBe(true)
        expect(str(dec(printed))).toBe(printed)
      }),
    )
  })

  it('accepts the forms the GraphQL Decimal scalar accepts', () => {
    expect(str(dec('.5'))).toBe('0.5')
    expect(str(dec('5.'))).toBe('5')
    expect(str(dec('+12.50'))).toBe('12.5')
    expect(str(dec('-0.000'))).toBe('0')
    expect(str(dec('007'))).toBe('7')
  })

  it('refuses anything that is not plain decimal text', () => {
    for (const text of ['', '.', '-', '+', '1e5', '1E-2', 'NaN', 'Infinity', '-Infinity', ' 1', '1 ', '1,5', '0x10', '1.2.3', '--1', '١٢', '۱۲']) {
      expect(parseDecimal(text), text).toBeUndefined()
    }
  })

  it('keeps digits a float would lose', () => {
    expect(str(add(dec('0.1'), dec('0.2')))).toBe('0.3')
    expect(str(dec('12345678901234567.89'))).toBe('12345678901234567.89')
    expect(str(multiply(dec('1.1'), dec('1.1')))).toBe('1.21')
  })
})

describe('compareDecimals', () => {
  it('is antisymmetric and agrees with the sign of the difference', () => {
    fc.assert(
      fc.property(anyDecimal, anyDecimal, (a, b) => {
        const c = compareDecimals(a, b)
        expect(compareDecimals(b, a)).toBe(-c as -1 | 0 | 1)
        const diff = subtract(a, b).coefficient
        expect(c).toBe(diff < 0n ? -1 : diff > 0n ? 1 : 0)
      }),
    )
  })

  it('ignores spelling: trailing zeros do not change a value', () => {
    fc.assert(
      fc.property(anyDecimal, fc.nat(5), (a, zeros) => {
        const padded = { coefficient: a.coefficient * 10n ** BigInt(zeros), scale: a.scale + zeros }
        expect(compareDecimals(a, padded)).toBe(0)
        expect(normalize(padded)).toEqual(normalize(a))
      }),
    )
  })

  it('is transitive', () => {
    fc.assert(
      fc.property(anyDecimal, anyDecimal, anyDecimal, (a, b, c) => {
        const sorted = [a, b, c].sort(compareDecimals)
        expect(compareDecimals(sorted[0]!, sorted[2]!)).toBeLessThanOrEqual(0)
      }),
    )
  })
})

describe('isMultipleOf', () => {
  it('holds for every integer multiple of a step', () => {
    fc.assert(
      fc.property(positiveDecimal, fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), (step, k) => {
        expect(isMultipleOf(multiply(step, { coefficient: k, scale: 0 }), step)).toBe(true)
      }),
    )
  })

  it('fails when a remainder strictly between 0 and the step is added', () => {
    fc.assert(
      fc.property(positiveDecimal, fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.integer({ min: 1, max: 999 }), (step, k, thousandths) => {
        const remainder = multiply(step, { coefficient: BigInt(thousandths), scale: 3 }) // step × 0.001..0.999
        expect(isMultipleOf(add(multiply(step, { coefficient: k, scale: 0 }), remainder), step)).toBe(false)
      }),
    )
  })

  it('is exact where floats are not', () => {
    expect(isMultipleOf(dec('0.3'), dec('0.1'))).toBe(true) // 0.3 % 0.1 === 0.09999999999999998 in floats
    expect(isMultipleOf(dec('1050000'), dec('10'))).toBe(true)
    expect(isMultipleOf(dec('1050005'), dec('10'))).toBe(false)
    expect(isMultipleOf(dec('100.01'), dec('0.01'))).toBe(true)
    expect(isMultipleOf(dec('100.001'), dec('0.01'))).toBe(false)
    expect(() => isMultipleOf(dec('1'), dec('0'))).toThrow(RangeError)
  })
})

describe('hasAtMostPlaces', () => {
  /** Oracle on the canonical text: count fraction digits, or trailing zeros of the whole number. */
  function placesOracle(value: DecimalValue, places: number): boolean {
    const text = str(value).replace('-', '')
    if (text === '0') return true
    const [whole, fraction = ''] = text.split('.')
    if (places >= 0) return fraction.length <= places
    return fraction === '' && whole!.length > -places && whole!.endsWith('0'.repeat(-places))
  }

  it('agrees with counting digits, for positive, zero and negative precisions', () => {
    fc.assert(
      fc.property(anyDecimal, precision, (value, places) => {
        expect(hasAtMostPlaces(value, places)).toBe(placesOracle(value, places))
      }),
    )
  })

  it('reads a negative precision as a multiple of a power of ten', () => {
    expect(str(unitOfPlaces(-2))).toBe('100')
    expect(str(unitOfPlaces(0))).toBe('1')
    expect(str(unitOfPlaces(3))).toBe('0.001')
    expect(hasAtMostPlaces(dec('1200'), -2)).toBe(true)
    expect(hasAtMostPlaces(dec('1210'), -2)).toBe(false)
    expect(hasAtMostPlaces(dec('1210'), -1)).toBe(true)
    expect(hasAtMostPlaces(dec('1200.00'), -2)).toBe(true)
    expect(hasAtMostPlaces(dec('0.123'), 2)).toBe(false)
    expect(hasAtMostPlaces(dec('0.120'), 2)).toBe(true)
  })
})

describe('priceBand', () => {
  const percent = fc.integer({ min: 0, max: 10_000 }).map((basisPoints) => ({ coefficient: BigInt(basisPoints), scale: 2 })) // 0.00%..100.00%

  it('is centred on the reference price and as wide as the percent says, exactly', () => {
    fc.assert(
      fc.property(positiveDecimal, percent, (reference, pct) => {
        const { min, max } = priceBand(reference, pct)
        expect(compareDecimals(min, reference)).toBeLessThanOrEqual(0)
        expect(compareDecimals(reference, max)).toBeLessThanOrEqual(0)
        expect(decimalsEqual(subtract(max, reference), subtract(reference, min))).toBe(true)
        // (max − reference) × 100 = reference × percent
        expect(decimalsEqual(multiply(subtract(max, reference), dec('100')), multiply(reference, pct))).toBe(true)
      }),
    )
  })

  it('never goes below zero', () => {
    expect(priceBand(dec('100'), dec('150'))).toEqual({ min: dec('0'), max: dec('250') })
  })

  it('computes the demo USD-IRR band', () => {
    const band = priceBand(dec('1050000'), dec('5'))
    expect([str(band.min), str(band.max)]).toEqual(['997500', '1102500'])
    const fine = priceBand(dec('0.3'), dec('12.5'))
    expect([str(fine.min), str(fine.max)]).toEqual(['0.2625', '0.3375'])
  })
})
