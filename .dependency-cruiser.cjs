/**
 * The layers of src/, lowest first. A layer imports only itself and the layers below it; modules
 * import any layer but app/; app/ wires everything. No import cycles, type-only imports included.
 */
const LAYERS = ['core', 'db', 'observability', 'http', 'graphql', 'rate-limits', 'modules', 'app']

/**
 * The folders of src/modules/exchange/, lowest first: each imports only itself and the folders
 * before it, so no two folders depend on each other in a loop (docs/matching.md, "An order's
 * way"). The event log is below every writer; matching, which places orders, is on top.
 */
const EXCHANGE = [
  'symbols',
  'event-log',
  'accounts',
  'withdrawals',
  'settlement',
  'orders',
  'fills',
  'market',
  'market-data',
  'events',
  'matching',
  'cancel-after',
  'webhooks',
]
const EXCHANGE_DIR = '^src/modules/exchange'

const forbidden = [
  {
    name: 'no-circular',
    severity: 'error',
    comment: 'An import cycle, type-only imports included: the next change would make it a run-time one.',
    from: {},
    to: { circular: true },
  },
  {
    name: 'table-interfaces-are-leaves',
    severity: 'error',
    comment: 'src/db/schema.ts and the src/db/*.table.ts files declare the tables and import nothing of the project but each other and src/db/column-types.ts.',
    from: { path: '^src/db/(schema|column-types|[a-z0-9-]+[.]table)[.]ts$' },
    to: { path: '^(src|migrations)/', pathNot: '^src/db/(schema|column-types|[a-z0-9-]+[.]table)[.]ts$' },
  },
  {
    name: 'migrations-are-frozen',
    severity: 'error',
    comment: 'A migration must not change when application code does: it imports nothing of src/.',
    from: { path: '^migrations/' },
    to: { path: '^src/' },
  },
  ...LAYERS.slice(0, -1).map((layer, i) => ({
    name: `${layer}-imports-no-higher-layer`,
    severity: 'error',
    comment: `src/${layer}/ imports only itself and ${LAYERS.slice(0, i).join(', ') || 'no other layer'}.`,
    from: { path: `^src/${layer}/` },
    to: { path: `^src/(${LAYERS.slice(i + 1).join('|')})/` },
  })),
  {
    name: 'unit-tests-need-no-test-helpers',
    severity: 'error',
    comment:
      'A test beside its module in src/ is a unit test of that module: it starts no server or database, so it needs nothing of test/ (CONTRIBUTING.md, "How the suite is set up").',
    from: { path: '^src/.+[.]test[.]ts$' },
    to: { path: '^test/' },
  },
  ...EXCHANGE.slice(0, -1).map((folder, i) => ({
    name: `exchange-${folder}-imports-no-higher-folder`,
    severity: 'error',
    comment: `src/modules/exchange/${folder}/ imports only itself and ${EXCHANGE.slice(0, i).join(', ') || 'no other exchange folder'}.`,
    from: { path: `${EXCHANGE_DIR}/${folder}/` },
    to: { path: `${EXCHANGE_DIR}/(${EXCHANGE.slice(i + 1).join('|')})/` },
  })),
  {
    name: 'only-known-exchange-folders',
    severity: 'error',
    comment: `Every file of src/modules/exchange/ lives in one of its ordered folders: ${EXCHANGE.join(', ')}.`,
    from: { path: `${EXCHANGE_DIR}/` },
    to: { path: `${EXCHANGE_DIR}/`, pathNot: `${EXCHANGE_DIR}/(${EXCHANGE.join('|')})/` },
  },
  {
    name: 'only-known-layers',
    severity: 'error',
    comment: `Every file of src/ lives in one of the layers: ${LAYERS.join(', ')}.`,
    from: { path: '^src/' },
    to: { path: '^src/', pathNot: `^src/(${LAYERS.join('|')})/` },
  },
]

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6'],
  },
}
