import type { CodegenConfig } from '@graphql-codegen/cli'

const scalars = { Decimal: 'string', DateTime: 'string', JSON: 'unknown' }

const config: CodegenConfig = {
  schema: './schema.graphql',
  generates: {
    // Typed documents of the test suite's operations.
    'test/generated/graphql.ts': {
      documents: ['test/operations/**/*.graphql'],
      plugins: ['typescript-operations', 'typed-document-node'],
      config: { scalars, enumsAsTypes: true, useTypeImports: true },
    },
    // The dashboard example: the client preset, over the graphql(`…`) documents of its sources.
    'examples/dashboard/generated/': {
      preset: 'client',
      documents: ['examples/dashboard/**/*.ts', '!examples/dashboard/generated/**'],
      // Each document carries its sha256 (`__meta__.hash`), which the client sends as `documentId`;
      // persisted-documents.json (hash → text) is what the service is given as GRAPHQL_PERSISTED_DOCUMENTS.
      presetConfig: { fragmentMasking: false, persistedDocuments: { mode: 'embedHashInDocument', hashAlgorithm: 'sha256' } },
      config: { scalars, enumsAsTypes: true, useTypeImports: true, emitLegacyCommonJSImports: false },
    },
  },
}

export default config
