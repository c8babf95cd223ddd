import { crc32 } from 'node:zlib'

import { formatDecimalAtLeast } from '../../../core/decimal.ts'

/** Levels of each side the checksum covers, best first (docs/api.md, "Book integrity"). */
export const CHECKSUM_LEVELS = 10

/**
 * One side's best levels as the order book captured them for a book event: `units` holds price,
 * quantity, price, quantity, … as integers at the two scales, best level first.
 */
export interface SideTop {
  readonly priceScale: number
  readonly quantityScale: number
  readonly units: readonly bigint[]
}

/** What a book event's checksum is computed from: both sides as the event leaves the book. */
export interface BookTop {
  readonly asks: SideTop
  readonly bids: SideTop
}

/** One side's text: `price:quantity` per level, best first, joined by `,`, at most CHECKSUM_LEVELS. */
export function sideText(levels: readonly { price: string; quantity: string }[]): string {
  let text = ''
  const n = Math.min(levels.length, CHECKSUM_LEVELS)
  for (let i = 0; i < n; i++) text += `${i === 0 ? '' : ','}${levels[i]!.price}:${levels[i]!.quantity}`
  return text
}

/** A captured side's text, its decimals rendered as the snapshot and book events render them. */
export function capturedSideText(top: SideTop, pricePlaces: number, quantityPlaces: number): string {
  let text = ''
  for (let i = 0; i < top.units.length; i += 2) {
    const price = unitsText(top.units[i]!, top.priceScale, pricePlaces)
    const quantity = unitsText(top.units[i + 1]!, top.quantityScale, quantityPlaces)
    text += `${i === 0 ? '' : ','}${price}:${quantity}`
  }
  return text
}

/**
 * `formatDecimalAtLeast({ coefficient: units, scale }, places)` for a positive value, on its
 * digits as text: a book event renders 20 of them, and bigint division per trailing zero costs
 * more than the rest of the event.
 */
function unitsText(units: bigint, scale: number, places: number): string {
  if (units <= 0n || places < 0) return formatDecimalAtLeast({ coefficient: units, scale }, places)
  let digits = units.toString()
  let end = digits.length
  while (scale > places && digits.charCodeAt(end - 1) === 48) {
    end--
    scale--
  }
  if (end < digits.length) digits = digits.slice(0, end)
  if (scale < places) {
    digits += '0'.repeat(places - scale)
    scale = places
  }
  if (scale === 0) return digits
  if (digits.length <= scale) digits = digits.padStart(scale + 1, '0')
  return `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`
}

/** CRC-32 (unsigned) of the asks' text, `|`, the bids' text. */
export function bookChecksum(asksText: string, bidsText: string): number {
  return crc32(`${asksText}|${bidsText}`)
}
