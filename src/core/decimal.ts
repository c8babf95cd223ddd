/**
 * Exact decimal arithmetic for trading rules: a value is `coefficient × 10^-scale` with a bigint
 * coefficient, so `0.1 + 0.2` never becomes `0.30000000000000004` and a tick-size check on
 * `123456789.123456789` is exact. Only what the rules need: parse, print, compare, multiple-of,
 * places, and the daily price band.
 */
export interface DecimalValue {
  readonly coefficient: bigint
  /** Digits after the point; always ≥ 0. */
  readonly scale: number
}

/**
 * The text the GraphQL `Decimal` scalar accepts, so both faces accept the same inputs. Linear:
 * the integer digits and the fraction digits are separated by a mandatory point, so no digit can
 * be claimed by two quantifiers (`\d+\.?\d*` backtracks quadratically on `111…1x`).
 */
export const DECIMAL_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/

/** `"-012.50"` → `{ coefficient: -1250n, scale: 2 }`; anything else (exponents, spaces, `NaN`) → undefined. */
export function parseDecimal(text: string): DecimalValue | undefined {
  if (!DECIMAL_TEXT.test(text)) return undefined
  // Positions, not a replace and a split: stored values are parsed several times per order.
  const sign = text.charCodeAt(0)
  const start = sign === MINUS || sign === PLUS ? 1 : 0
  const point = text.indexOf('.', start)
  const digits = point === -1 ? text.slice(start) : text.slice(start, point) + text.slice(point + 1)
  // Up to 15 digits a double holds the integer exactly, and BigInt of a number is cheaper than of a text.
  const magnitude = digits.length === 0 ? 0n : digits.length <= 15 ? BigInt(Number(digits)) : BigInt(digits)
  return { coefficient: sign === MINUS ? -magnitude : magnitude, scale: point === -1 ? 0 : text.length - point - 1 }
}

const MINUS = 0x2d
const PLUS = 0x2b
const POWERS_OF_TEN: readonly bigint[] = Array.from({ length: 40 }, (_, n) => 10n ** BigInt(n))

/** 10^n for n ≥ 0. */
function powerOfTen(n: number): bigint {
  return POWERS_OF_TEN[n] ?? 10n ** BigInt(n)
}

/** Drops trailing fractional zeros: `1.500` → `1.5`, `100` stays `100`. */
export function normalize(value: DecimalValue): DecimalValue {
  let { coefficient, scale } = value
  while (scale > 0 && coefficient % 10n === 0n) {
    coefficient /= 10n
    scale--
  }
  return { coefficient, scale }
}

/** Canonical text: no trailing fractional zeros, no leading zeros, no `-0`. */
export function formatDecimal(value: DecimalValue): string {
  return formatFixed(normalize(value))
}

/**
 * Text with at least `places` digits after the point (none when `places` ≤ 0), more only when the
 * value needs them: `1.5` at 2 places is `1.50`, `1.125` stays `1.125`. Never rounds.
 */
export function formatDecimalAtLeast(value: DecimalValue, places: number): string {
  const { coefficient, scale } = normalize(value)
  const wanted = Math.max(scale, places, 0)
  return formatFixed({ coefficient: coefficient * powerOfTen(wanted - scale), scale: wanted })
}

/** Text of exactly the value's scale: `{ 150n, 2 }` is `1.50`. */
function formatFixed({ coefficient, scale }: DecimalValue): string {
  const negative = coefficient < 0n
  const digits = (negative ? -coefficient : coefficient).toString().padStart(scale + 1, '0')
  const whole = digits.slice(0, digits.length - scale)
  const fraction = digits.slice(digits.length - scale)
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}

function rescale(value: DecimalValue, scale: number): bigint {
  return scale === value.scale ? value.coefficient : value.coefficient * powerOfTen(scale - value.scale)
}

function aligned(a: DecimalValue, b: DecimalValue): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale)
  return [rescale(a, scale), rescale(b, scale), scale]
}

export function compareDecimals(a: DecimalValue, b: DecimalValue): -1 | 0 | 1 {
  const [x, y] = aligned(a, b)
  return x < y ? -1 : x > y ? 1 : 0
}

export function decimalsEqual(a: DecimalValue, b: DecimalValue): boolean {
  return compareDecimals(a, b) === 0
}

export function isPositive(value: DecimalValue): boolean {
  return value.coefficient > 0n
}

export function add(a: DecimalValue, b: DecimalValue): DecimalValue {
  const [x, y, scale] = aligned(a, b)
  return { coefficient: x + y, scale }
}

export function subtract(a: DecimalValue, b: DecimalValue): DecimalValue {
  const [x, y, scale] = aligned(a, b)
  return { coefficient: x - y, scale }
}

export function multiply(a: DecimalValue, b: DecimalValue): DecimalValue {
  return { coefficient: a.coefficient * b.coefficient, scale: a.scale + b.scale }
}

/** `value` is an integer multiple of `step` (step > 0). */
export function isMultipleOf(value: DecimalValue, step: DecimalValue): boolean {
  const [x, y] = aligned(value, step)
  if (y === 0n) throw new RangeError('step must not be zero')
  return x % y === 0n
}

/** 10^-places: `2` → 0.01, `0` → 1, `-1` → 10 (a negative precision means whole tens, hundreds, …). */
export function unitOfPlaces(places: number): DecimalValue {
  if (!Number.isSafeInteger(places)) throw new RangeError('places must be an integer')
  return places >= 0 ? { coefficient: 1n, scale: places } : { coefficient: 10n ** BigInt(-places), scale: 0 }
}

/** At most `places` digits after the point; a negative `places` demands a multiple of 10^-places. */
export function hasAtMostPlaces(value: DecimalValue, places: number): boolean {
  return isMultipleOf(value, unitOfPlaces(places))
}

export interface PriceBand {
  min: DecimalValue
  max: DecimalValue
}

const HUNDRED: DecimalValue = { coefficient: 100n, scale: 0 }
/** Zero, frozen: shared by every module that starts a sum or stands for nothing held. */
export const ZERO: DecimalValue = Object.freeze({ coefficient: 0n, scale: 0 })

/**
 * The daily band around a reference price: `reference × (100 ∓ percent) / 100`, exact. A percent
 * of 100 or more leaves no lower bound beyond zero.
 */
export function priceBand(reference: DecimalValue, percent: DecimalValue): PriceBand {
  const lowerFactor = subtract(HUNDRED, percent)
  const min = isPositive(lowerFactor) ? divideByHundred(multiply(reference, lowerFactor)) : ZERO
  const max = divideByHundred(multiply(reference, add(HUNDRED, percent)))
  return { min: normalize(min), max: normalize(max) }
}

function divideByHundred(value: DecimalValue): DecimalValue {
  return { coefficient: value.coefficient, scale: value.scale + 2 }
}

/** For values the database already holds as `numeric`: a failure here is a fault, not bad input. */
export function decimalFromStore(text: string): DecimalValue {
  const value = parseDecimal(text)
  if (!value) throw new Error(`stored value is not a finite decimal: ${text}`)
  return value
}
