import { defineConfig } from 'vitest/config'

export default defineConfig({
  // graphql ships CJS and ESM builds; one copy must serve Pothos, Yoga and the tests alike.
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 90_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
})
