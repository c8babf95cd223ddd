import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import { add, compareDecimals, type DecimalValue, formatDecimal, hasAtMostPlaces, multiply, parseDecimal, subtract } from '../../../core/decimal.ts'
import { ceilToPlaces, feeFor, floorToPlaces, holdFor, type HoldRules, settleFill } from './money.ts'

const dec = (text: string): DecimalValue => parseDecimal(text)!
const str = (value: DecimalValue | 'available') => (value === 'available' ? value : formatDecimal(value))
const ZERO = dec('0')

/** A non-negative decimal with up to `maxScale` places. */
const decimal = (maxScale = 8, maxCoefficient = 10n ** 14n) =>
  fc.record({ coefficient: fc.bigInt({ min: 0n, max: maxCoefficient }), scale: fc.integer({ min: 0, max: maxScale }) }) as fc.Arbitrary<DecimalValue>
// Fee rates are below 100 % (the symbols table says so).
const percent = fc.record({ coefficient: fc.bigInt({ min: 0n, max: 9999n }), scale: fc.integer({ min: 2, max: 4 }) }) as fc.Arbitrary<DecimalValue>
const precision = fc.integer({ min: 0, max: 8 })

const btcUsdt: HoldRules = {
  base: 'BTC',
  quote: 'USDT',
  reference_price: null,
  daily_fluctuation_price_limit_percent: '20',
  basePrecision: 8,
  quotePrecision: 2,
}
const usdIrr: HoldRules = {
  base: 'USD',
  quote: 'IRR',
  reference_price: '1050000',
  daily_fluctuation_price_limit_percent: '5',
  basePrecision: 2,
  quotePrecision: 0,
}
const fees = (maker: string, taker: string) => ({ maker_fee_percent: maker, taker_fee_percent: taker })

describe('ceilToPlaces and floorToPlaces', () => {
  it.each([
    ['1.001', 2, '1.01', '1'],
    ['1.00', 2, '1', '1'],
    ['0.000001', 2, '0.01', '0'],
    ['15', -1, '20', '10'],
    ['-1.005', 2, '-1', '-1.01'],
    ['123.456', 0, '124', '123'],
  ])('%s at %i places: up %s, down %s', (value, places, up, down) => {
    expect(str(ceilToPlaces(dec(value), places))).toBe(up)
    expect(str(floorToPlaces(dec(value), places))).toBe(down)
  })

  it('brackets the value within one unit, at the precision', () => {
    fc.assert(
      fc.property(decimal(), fc.integer({ min: -2, max: 8 }), (value, places) => {
        const up = ceilToPlaces(value, places)
        const down = floorToPlaces(value, places)
        expect(hasAtMostPlaces(up, places) && hasAtMostPlaces(down, places)).toBe(true)
        expect(compareDecimals(down, value)).toBeLessThanOrEqual(0)
        expect(compareDecimals(up, value)).toBeGreaterThanOrEqual(0)
        const unit = places >= 0 ? { coefficient: 1n, scale: places } : { coefficient: 10n ** BigInt(-places), scale: 0 }
        expect(compareDecimals(subtract(up, value), unit)).toBeLessThan(0)
      }),
    )
  })
})

describe('feeFor', () => {
  it.each([
    ['1000', '0.2', 2, '2'],
    ['1234.56', '0.1', 2, '1.24'], // 1.23456 rounded up
    ['999', '0.15', 0, '2'], // 1.4985 rounded up to a whole rial
    ['0.01', '0.1', 2, '0.01'], // 0.00001: any fee at all is at least one unit
    ['5000', '0', 2, '0'],
    ['0', '0.5', 2, '0'],
  ])('%s at %s%% to %i places is %s', (notional, rate, places, fee) => {
    expect(str(feeFor(dec(notional), dec(rate), places))).toBe(fee)
  })

  it('is rounded up: never below the exact fee, less than one unit above, never negative, at the precision', () => {
    fc.assert(
      fc.property(decimal(), percent, precision, (notional, rate, places) => {
        const fee = feeFor(notional, rate, places)
        const exact = { coefficient: notional.coefficient * rate.coefficient, scale: notional.scale + rate.scale + 2 }
        expect(fee.coefficient >= 0n).toBe(true)
        expect(hasAtMostPlaces(fee, places)).toBe(true)
        expect(compareDecimals(fee, exact)).toBeGreaterThanOrEqual(0)
        expect(compareDecimals(subtract(fee, exact), { coefficient: 1n, scale: places })).toBeLessThan(0)
      }),
    )
  })

  it('refuses a negative notional or rate', () => {
    expect(() => feeFor(dec('-1'), dec('0.1'), 2)).toThrow(RangeError)
    expect(() => feeFor(dec('1'), dec('-0.1'), 2)).toThrow(RangeError)
  })
})

describe('holdFor', () => {
  it('holds the quantity of a sell, in the base currency', () => {
    const hold = holdFor({ side: 'sell', type: 'limit', quantity: dec('0.5'), price: dec('60000') }, btcUsdt, fees('0.1', '0.2'))
    expect(hold).toEqual({ currency: 'BTC', amount: dec('0.5') })
    expect(holdFor({ side: 'sell', type: 'market', quantity: dec('0.5'), price: null }, btcUsdt, fees('0.1', '0.2')).currency).toBe('BTC')
  })

  it('holds price × quantity rounded up plus the highest fee on it, in the quote currency, for a limit buy', () => {
    // 60000.01 × 0.123457 = 7407.421234... → 7407.43; fee 0.2 % of it = 14.81486 → 14.82.
    const hold = holdFor({ side: 'buy', type: 'limit', quantity: dec('0.123457'), price: dec('60000.01') }, btcUsdt, fees('0.1', '0.2'))
    expect(hold.currency).toBe('USDT')
    expect(str(hold.amount)).toBe('7422.25')
    // The maker rate, when higher, is the most the order can pay.
    expect(str(holdFor({ side: 'buy', type: 'limit', quantity: dec('1'), price: dec('100') }, btcUsdt, fees('1', '0.5')).amount)).toBe('101')
  })

  it("holds quantity × the band's ceiling plus fee for a market buy, or everything available without a band", () => {
    // Band ceiling: 1050000 × 1.05 = 1102500; × 100 = 110250000; fee 0.1 % = 110250.
    const hold = holdFor({ side: 'buy', type: 'market', quantity: dec('100'), price: null }, usdIrr, fees('0', '0.1'))
    expect(hold).toEqual({ currency: 'IRR', amount: dec('110360250') })
    expect(holdFor({ side: 'buy', type: 'market', quantity: dec('1'), price: null }, btcUsdt, fees('0', '0'))).toEqual({
      currency: 'USDT',
      amount: 'available',
    })
  })

  it('covers every way a limit buy can fill: the buyer is never charged more than its hold', () => {
    const fill = fc.record({ quantity: decimal(6, 10n ** 6n), priceCut: fc.bigInt({ min: 0n, max: 1000n }) })
    fc.assert(
      fc.property(
        fc.array(fill, { minLength: 1, maxLength: 30 }),
        fc.bigInt({ min: 1001n, max: 10n ** 8n }),
        percent,
        percent,
        (fills, priceCoefficient, maker, taker) => {
          const limit: DecimalValue = { coefficient: priceCoefficient, scale: 2 }
          const quantity = fills.reduce((sum, f) => add(sum, f.quantity), ZERO)
          if (quantity.coefficient === 0n) return
          const hold = holdFor({ side: 'buy', type: 'limit', quantity, price: limit }, btcUsdt, fees(str(maker), str(taker)))
          if (hold.amount === 'available') throw new Error('a limit buy holds an amount')
          let notional = ZERO
          let accrued = ZERO
          let charged = ZERO
          let sellerAccrued = ZERO
          for (const [i, f] of fills.entries()) {
            if (f.quantity.coefficient === 0n) continue
            // Fills at or below the limit, alternately as taker and maker.
            const price = { coefficient: priceCoefficient - f.priceCut, scale: 2 }
            const rate = i % 2 === 0 ? taker : maker
            const s = settleFill({
              price,
              quantity: f.quantity,
              quotePrecision: 2,
              buyerFilledNotional: notional,
              buyer: { feeAccrued: accrued, feePercent: rate },
              seller: { feeAccrued: sellerAccrued, feePercent: rate },
            })
            for (const amount of [s.amount, s.buyerFee, s.sellerFee, subtract(s.amount, s.sellerFee)]) {
              expect(amount.coefficient >= 0n).toBe(true)
              expect(hasAtMostPlaces(amount, 2)).toBe(true)
            }
            notional = add(notional, multiply(price, f.quantity))
            accrued = s.buyerFeeAccrued
            sellerAccrued = s.sellerFeeAccrued
            charged = add(charged, add(s.amount, s.buyerFee))
          }
          expect(compareDecimals(charged, hold.amount)).toBeLessThanOrEqual(0)
          // What it paid is its exact totals rounded up.
          expect(compareDecimals(charged, add(ceilToPlaces(notional, 2), ceilToPlaces(accrued, 2)))).toBe(0)
        },
      ),
    )
  })
})

describe('settleFill', () => {
  it('moves the same rounded amount from buyer to seller, and each side its fee rounded up', () => {
    const s = settleFill({
      price: dec('60000.01'),
      quantity: dec('0.000123'),
      quotePrecision: 2,
      buyerFilledNotional: ZERO,
      buyer: { feeAccrued: ZERO, feePercent: dec('0.2') },
      seller: { feeAccrued: ZERO, feePercent: dec('0.1') },
    })
    // 60000.01 × 0.000123 = 7.38000123 → 7.39; buyer fee 0.01478 → 0.02; seller fee 0.00739 → 0.01.
    expect([str(s.amount), str(s.buyerFee), str(s.sellerFee)]).toEqual(['7.39', '0.02', '0.01'])
    expect([str(s.buyerFeeAccrued), str(s.sellerFeeAccrued)]).toEqual(['0.01478', '0.00739'])
  })
})
