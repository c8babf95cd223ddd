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
    const price = formatDecimalAtLeast({ coefficient: top.units[i]!, scale: top.priceScale }, pricePlaces)
    const quantity = formatDecimalAtLeast({ coefficient: top.units[i + 1]!, scale: top.quantityScale }, quantityPlaces)
    text += `${i === 0 ? '' : ','}${price}:${quantity}`
  }
  return text
}

/** CRC-32 (unsigned) of the asks' text, `|`, the bids' text. */
export function bookChecksum(asksText: string, bidsText: string): number {
  return crc32(`${asksText}|${bidsText}`)
}
