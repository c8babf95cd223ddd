import { type DecimalValue, unitOfPlaces } from '../../../core/decimal.ts'

/**
 * The most of `left` a fill may take when money bounds it (docs/matching.md, "Lots"): the largest
 * multiple of the symbol's quantity step (10^-quantity_precision; a negative precision means lots
 * of 10, 100, …) for which `fits` holds, found by bisection on whole steps, so it rounds down and
 * never leaves an odd lot behind. `fits` must hold up to some quantity and fail beyond it (what a
 * fill costs grows with its quantity). `left` itself when it fits whole.
 */
export function largestFittingLot(left: DecimalValue, quantityPrecision: number, fits: (quantity: DecimalValue) => boolean): DecimalValue {
  const step = unitOfPlaces(quantityPrecision)
  const scale = Math.max(step.scale, left.scale)
  const stepAtScale = step.coefficient * 10n ** BigInt(scale - step.scale)
  const at = (steps: bigint): DecimalValue => ({ coefficient: steps * step.coefficient, scale: step.scale })
  if (fits(left)) return left
  let low = 0n
  let high = (left.coefficient * 10n ** BigInt(scale - left.scale)) / stepAtScale
  while (low < high) {
    const mid = (low + high + 1n) / 2n
    if (fits(at(mid))) low = mid
    else high = mid - 1n
  }
  return at(low)
}
