/** Demo market: real currencies with plausible trading rules. Values are data, not behaviour. */
export const demoCurrencies = [
  { code: 'IRR', name_fa: 'ریال ایران', name_en: 'Iranian Rial', precision: 0, is_crypto: false, color: '#239f40', unit_value_irr: 1 },
  { code: 'IRT', name_fa: 'تومان', name_en: 'Iranian Toman', precision: 0, is_crypto: false, color: '#2e8b57', unit_value_irr: 10 },
  { code: 'USD', name_fa: 'دلار آمریکا', name_en: 'US Dollar', precision: 2, is_crypto: false, color: '#3c3b6e', unit_value_irr: 1_050_000 },
  { code: 'EUR', name_fa: 'یورو', name_en: 'Euro', precision: 2, is_crypto: false, color: '#003399', unit_value_irr: 1_210_000 },
  { code: 'AED', name_fa: 'درهم امارات', name_en: 'UAE Dirham', precision: 2, is_crypto: false, color: '#00732f', unit_value_irr: 286_000 },
  { code: 'CNY', name_fa: 'یوآن چین', name_en: 'Chinese Yuan', precision: 2, is_crypto: false, color: '#de2910', unit_value_irr: 145_000 },
  { code: 'USDT', name_fa: 'تتر', name_en: 'Tether', precision: 2, is_crypto: true, color: '#26a17b', unit_value_irr: 1_045_000 },
  { code: 'BTC', name_fa: 'بیت‌کوین', name_en: 'Bitcoin', precision: 8, is_crypto: true, color: '#f7931a', unit_value_irr: 98_000_000_000 },
  { code: 'ETH', name_fa: 'اتریوم', name_en: 'Ethereum', precision: 8, is_crypto: true, color: '#627eea', unit_value_irr: 3_600_000_000 },
].map((c) => ({ ...c, icon: `https://static.exchange-center.ir/currencies/${c.code.toLowerCase()}.svg` }))

export const demoSymbols = [
  // Rial prices are whole numbers (price_precision 0); trades are in lots of 10 units (quantity_precision -1).
  { symbol: 'USD-IRR', price_precision: 0, quantity_precision: -1, min_order_quantity: '100', tick_size: '10', daily_fluctuation_price_limit_percent: '5', description: 'US Dollar against Iranian Rial', is_active: true },
  { symbol: 'EUR-IRR', price_precision: 0, quantity_precision: -1, min_order_quantity: '100', tick_size: '10', daily_fluctuation_price_limit_percent: '5', description: 'Euro against Iranian Rial', is_active: true },
  { symbol: 'AED-IRR', price_precision: 0, quantity_precision: 0, min_order_quantity: '500', tick_size: '5', daily_fluctuation_price_limit_percent: '5', description: 'UAE Dirham against Iranian Rial', is_active: true },
  { symbol: 'CNY-IRR', price_precision: 0, quantity_precision: -2, min_order_quantity: '1000', tick_size: '1', daily_fluctuation_price_limit_percent: '5', description: 'Chinese Yuan against Iranian Rial', is_active: true },
  { symbol: 'USDT-IRT', price_precision: 0, quantity_precision: 2, min_order_quantity: '10', tick_size: '1', daily_fluctuation_price_limit_percent: '10', description: 'Tether against Toman', is_active: true },
  { symbol: 'BTC-USDT', price_precision: 2, quantity_precision: 6, min_order_quantity: '0.0001', tick_size: '0.01', daily_fluctuation_price_limit_percent: '20', description: 'Bitcoin against Tether', is_active: true },
  { symbol: 'ETH-USDT', price_precision: 2, quantity_precision: 5, min_order_quantity: '0.001', tick_size: '0.01', daily_fluctuation_price_limit_percent: '20', description: 'Ethereum against Tether', is_active: true },
  // Suspended market, kept listed so integrations see an inactive symbol.
  { symbol: 'ETH-IRT', price_precision: 0, quantity_precision: 4, min_order_quantity: '0.01', tick_size: '1000', daily_fluctuation_price_limit_percent: '10', description: 'Ethereum against Toman (suspended)', is_active: false },
]
