import type { DocumentNode } from 'graphql'

/**
 * A request's document, parsed once: the rate limits parse it to count the request before Yoga's
 * pipeline does (graphql-calls-plugin.ts), and Yoga's parse (graphqlLimitsPlugin) takes it from here
 * rather than parsing the same text again. Keyed by the Fetch request, so it goes with it.
 */
const parsed = new WeakMap<object, { text: string; document: DocumentNode }>()

export function rememberParsed(request: object, text: string, document: DocumentNode): void {
  parsed.set(request, { text, document })
}

/** The document parsed from `text` for `request`, if it was. */
export function parsedFor(request: object | undefined, text: string): DocumentNode | undefined {
  const entry = request && parsed.get(request)
  return entry?.text === text ? entry.document : undefined
}
