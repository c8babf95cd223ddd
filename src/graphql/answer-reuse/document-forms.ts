import { type DocumentNode, type FragmentDefinitionNode, getOperationAST, GraphQLError, Kind, Lexer, type SelectionSetNode, Source, TokenKind } from 'graphql'

/**
 * A document's *form*: its tokens, less whitespace, commas and comments, with its aliases numbered
 * in order of first appearance (docs/performance.md, "Documents of one form"). Two documents of one
 * form parse to the same tree but for their aliases' names and the positions of their tokens, and
 * their aliases name the same fields the same way: each alias that is also the name of anything
 * else in the document (a field, an argument, a type…) is kept as written, and the others are
 * numbered, one number per distinct alias. So whichever two of its response keys are equal in one
 * document are equal in the other, and every validation rule (graphql-js's, which compare response
 * keys only with each other, and the service's limits, which count aliases) decides both alike,
 * but for the names in its messages. A valid document's result is the other's with each numbered
 * alias's key renamed.
 */
export interface DocumentForm {
  /** Equal for two documents exactly when they are of one form. */
  key: string
  /** The numbered aliases as this document writes them: number `n` is `aliases[n]`. */
  aliases: readonly string[]
}

/** The form of a document's text; undefined for text that does not lex, or has more than `maxTokens` tokens. */
export function documentForm(text: string, maxTokens: number): DocumentForm | undefined {
  const parts: string[] = []
  const names: number[] = []
  const aliases: number[] = []
  const lexer = new Lexer(new Source(text))
  // Outside parentheses (arguments, variable definitions, and the values inside them) a colon
  // follows only an alias.
  let parentheses = 0
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (parts.length === maxTokens) return undefined
      switch (token.kind) {
        case TokenKind.NAME:
          names.push(parts.length)
          parts.push(token.value)
          break
        // Quoted, so neither kind of string reads as a name, a number or a punctuator, nor as each other.
        case TokenKind.STRING:
          parts.push(JSON.stringify(token.value))
          break
        case TokenKind.BLOCK_STRING:
          parts.push(`"""${JSON.stringify(token.value)}`)
          break
        case TokenKind.INT:
        case TokenKind.FLOAT:
          parts.push(token.value)
          break
        case TokenKind.COLON:
          if (parentheses === 0 && names.at(-1) === parts.length - 1) aliases.push(parts.length - 1)
          parts.push(token.kind)
          break
        default:
          if (token.kind === TokenKind.PAREN_L) parentheses++
          else if (token.kind === TokenKind.PAREN_R) parentheses--
          parts.push(token.kind)
      }
    }
  } catch (error) {
    if (error instanceof GraphQLError) return undefined
    throw error
  }
  const aliasSet = new Set(aliases)
  const otherNames = new Set<string>()
  for (const at of names) if (!aliasSet.has(at)) otherNames.add(parts[at]!)
  const numbers = new Map<string, number>()
  const numbered: string[] = []
  for (const at of aliases) {
    const alias = parts[at]!
    if (otherNames.has(alias)) continue
    let number = numbers.get(alias)
    if (number === undefined) {
      numbers.set(alias, (number = numbered.length))
      numbered.push(alias)
    }
    // `~` is in no GraphQL token: a number never reads as a name.
    parts[at] = `~${number}`
  }
  return { key: parts.join(' '), aliases: numbered }
}

/**
 * Where an operation's result has keys written by numbered aliases: by response key, the alias
 * number it takes, and the keys below it (for a field with a selection). Only the keys on the way
 * to a numbered alias are there; everything else in the result keeps its key.
 */
export type AliasedKeys = Map<string, { alias?: number; below?: AliasedKeys }>

// Fields visited, through fragments as spread, beyond which a document's keys are not mapped. A
// valid document selects at most 20,000 (its cost bound, each field costing at least one).
const MAX_FIELDS = 20_000

/**
 * The keys of `document`'s result (operation `operationName`) that its numbered `aliases` (its
 * form's) write; undefined when the operation is missing or selects more than MAX_FIELDS fields.
 */
export function aliasedKeys(document: DocumentNode, operationName: string | null | undefined, aliases: readonly string[]): AliasedKeys | undefined {
  const operation = getOperationAST(document, operationName ?? undefined)
  if (!operation) return undefined
  const numbers = new Map(aliases.map((alias, number) => [alias, number]))
  const fragments = new Map<string, FragmentDefinitionNode>()
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition)
  let fields = 0
  // Fragments nest no deeper than the validated document's depth; the bound stops a cycle regardless.
  const add = (selectionSet: SelectionSetNode, keys: AliasedKeys, depth: number): boolean => {
    if (depth > 64) return false
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        if (++fields > MAX_FIELDS) return false
        const key = selection.alias?.value ?? selection.name.value
        let entry = keys.get(key)
        if (!entry) keys.set(key, (entry = {}))
        const number = selection.alias && numbers.get(selection.alias.value)
        if (number !== undefined) entry.alias = number
        if (selection.selectionSet && !add(selection.selectionSet, (entry.below ??= new Map()), depth + 1)) return false
      } else {
        const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value)
        if (fragment && !add(fragment.selectionSet, keys, depth + 1)) return false
      }
    }
    return true
  }
  const keys: AliasedKeys = new Map()
  if (!add(operation.selectionSet, keys, 0)) return undefined
  prune(keys)
  return keys
}

/** Drops the keys that lead to no numbered alias; whether any is left. */
function prune(keys: AliasedKeys): boolean {
  for (const [key, entry] of keys) {
    if (entry.below && !prune(entry.below)) delete entry.below
    if (entry.alias === undefined && !entry.below) keys.delete(key)
  }
  return keys.size > 0
}

/** Whether every numbered alias writes a key of the result's top level, none below it. */
export const onlyTopLevel = (keys: AliasedKeys): boolean => [...keys.values()].every((entry) => !entry.below)

/**
 * `value` (a result's data, or a value in it) with the keys its numbered aliases wrote renamed to
 * `names` (another document's of the same form), in the same order. Objects on the way are copied;
 * the rest is shared.
 */
export function renameKeys(value: unknown, keys: AliasedKeys, names: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => renameKeys(item, keys, names))
  if (value === null || typeof value !== 'object') return value
  // Without a prototype an alias named `__proto__` is a key like any other, as in graphql-js's results.
  const renamed = Object.create(null) as Record<string, unknown>
  for (const [key, item] of Object.entries(value)) {
    const entry = keys.get(key)
    renamed[entry?.alias === undefined ? key : names[entry.alias]!] = entry?.below ? renameKeys(item, entry.below, names) : item
  }
  return renamed
}
