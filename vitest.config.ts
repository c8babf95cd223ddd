import { defineConfig } from 'vitest/config'

import LongestFirst from './test/helpers/sequencer.ts'

export default defineConfig({
  // graphql ships CJS and ESM builds; one copy must serve Pothos, Yoga and the tests alike.
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    // Unit tests of pure modules sit beside them; tests against a server or a database in test/.
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Migrates one database that every test database is copied from (CONTRIBUTING.md, "How the suite is set up").
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    // Each worker loads the application once for all its files rather than once per file (some
    // 4 s of CPU each): files share only the module cache, every file still opens its own servers
    // and databases.
    isolate: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    // The longest files first, so none is left running alone at the end (test/helpers/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    // Two test files at once (on these 2-core machines vitest would run one): the suite takes
    // about half as long (CONTRIBUTING.md, "How the suite is set up").
    maxWorkers: 2,
  },
})
