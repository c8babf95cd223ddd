import type { DecimalValue } from '../../../core/decimal.ts'

/**
 * `numerator / denominator` at exactly `places` digits after the point, rounded half-even. Exact
 * whenever the quotient terminates within `places` digits, since no digit is dropped then.
 */
export function divideRounded(numerator: DecimalValue, denominator: DecimalValue, places: number): DecimalValue {
  if (!Number.isSafeInteger(places) || places < 0) throw new RangeError('places must be a non-negative integer')
  if (denominator.coefficient === 0n) throw new RangeError('division by zero')
  // n·10^-sn / (d·10^-sd) scaled by 10^places → n·10^(sd - sn + places) / d, kept integral on both sides.
  const shift = denominator.scale - numerator.scale + places
  let n = numerator.coefficient
  let d = denominator.coefficient
  if (shift >= 0) n *= 10n ** BigInt(shift)
  else d *= 10n ** BigInt(-shift)
  const negative = n < 0n !== d < 0n
  if (n < 0n) n = -n
  if (d < 0n) d = -d
  let quotient = n / d
  const twiceRemainder = (n % d) * 2n
  if (twiceRemainder > d || (twiceRemainder === d && quotient % 2n === 1n)) quotient++
  return { coefficient: negative ? -quotient : quotient, scale: places }
}

/**
 * Σ(price×qty) / Σqty for an order's fills. `notional` must be the exact Σ price×qty; the result
 * is exact when it terminates within `maxPlaces` digits, else rounded half-even there.
 */
export function averagePrice(notional: DecimalValue, filled: DecimalValue, maxPlaces: number): DecimalValue {
  if (filled.coefficient <= 0n) throw new RangeError('filled quantity must be positive')
  return divideRounded(notional, filled, maxPlaces)
}
