/**
 * The layers of src/, lowest first. A layer imports only itself and the layers below it; modules
 * import any layer but app/; app/ wires everything. No import cycles, type-only imports included.
 */
const LAYERS = ['core', 'db', 'observability', 'http', 'graphql', 'rate-limits', 'modules', 'app']

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
    comment: 'src/db/schema.ts declares every table and imports nothing of the project.',
    from: { path: '^src/db/schema\\.ts$' },
    to: { path: '^(src|migrations)/' },
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
