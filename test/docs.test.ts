import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

import { ROOT } from './helpers/process.ts'

// The docs are references: every contents list names every section, and every relative link
// reaches a file and a heading that exist (CONTRIBUTING.md, "Docs"). Pure file reads.

/** The Markdown files whose links and contents lists are checked, relative to the repository. */
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(path.join(ROOT, 'docs'), { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => `docs/${e.name}`),
]
// A doc far larger than any of ours is a mistake, not something to scan.
const MAX_DOC_BYTES = 200_000

interface Heading {
  level: number
  anchor: string
}

interface Doc {
  /** Lines outside fenced code blocks; fenced lines are blanked, so line numbers still hold. */
  lines: string[]
  headings: Heading[]
}

const docs = new Map<string, Doc | undefined>()

function read(file: string): Doc | undefined {
  if (docs.has(file)) return docs.get(file)
  const full = path.join(ROOT, file)
  let doc: Doc | undefined
  if (existsSync(full)) {
    const text = readFileSync(full, 'utf8')
    if (text.length > MAX_DOC_BYTES) throw new Error(`${file} is over ${MAX_DOC_BYTES} bytes`)
    let fenced = false
    const lines = text.split('\n').map((line) => {
      if (/^\s{0,3}(```|~~~)/.test(line)) {
        fenced = !fenced
        return ''
      }
      return fenced ? '' : line
    })
    const seen = new Map<string, number>()
    const headings: Heading[] = []
    for (const line of lines) {
      const m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line)
      if (!m) continue
      const base = anchorOf(m[2]!)
      const n = seen.get(base) ?? 0
      seen.set(base, n + 1)
      headings.push({ level: m[1]!.length, anchor: n === 0 ? base : `${base}-${n}` })
    }
    doc = { lines, headings }
  }
  docs.set(file, doc)
  return doc
}

/** GitHub's anchor for a heading: its text as shown, lower-cased, punctuation but - and _ dropped, each space a -. */
function anchorOf(heading: string): string {
  const shown = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .toLowerCase()
  return shown.replace(/[^\p{L}\p{M}\p{N} _-]/gu, '').replace(/ /g, '-')
}

/** Every `[text](target)` of a doc outside code, inline code spans included. */
function linksOf(doc: Doc): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = []
  doc.lines.forEach((raw, i) => {
    const line = raw.replace(/`[^`]*`/g, '``')
    for (const m of line.matchAll(/\]\(([^)\s]*)\)/g)) links.push({ target: m[1]!, line: i + 1 })
  })
  return links
}

/** A doc's contents list: the in-page links listed before its first `##` heading, with their depth. */
function contentsOf(doc: Doc): { anchor: string; nested: boolean }[] {
  const entries: { anchor: string; nested: boolean }[] = []
  for (const line of doc.lines) {
    if (/^##\s/.test(line)) break
    const m = /^(\s*)- \[.*\]\(#([^)\s]+)\)\s*$/.exec(line)
    if (m) entries.push({ anchor: m[2]!, nested: m[1]!.length > 0 })
  }
  return entries
}

/** Where each link of `file` leads that does not exist: a file, or a heading of a Markdown file. */
function brokenLinks(file: string): string[] {
  const doc = read(file)
  if (!doc) return [`${file} does not exist`]
  const broken: string[] = []
  for (const { target, line } of linksOf(doc)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
    const hash = target.indexOf('#')
    const filePart = hash < 0 ? target : target.slice(0, hash)
    const anchor = hash < 0 ? undefined : target.slice(hash + 1)
    const resolved = filePart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), filePart))
    if (resolved.startsWith('..') || !existsSync(path.join(ROOT, resolved))) {
      broken.push(`${file}:${line} ${target}: no file ${resolved}`)
      continue
    }
    if (anchor === undefined || !resolved.endsWith('.md')) continue
    if (!read(resolved)!.headings.some((h) => h.anchor === anchor)) broken.push(`${file}:${line} ${target}: no heading #${anchor} in ${resolved}`)
  }
  return broken
}

describe('docs', () => {
  it.each(DOCS)('%s: every relative link reaches an existing file and heading', (file) => {
    expect(brokenLinks(file)).toEqual([])
  })

  it.each(DOCS)('%s: a contents list names every ## heading, in order, and the ### of any section it opens', (file) => {
    const doc = read(file)
    expect(doc, `${file} exists`).toBeDefined()
    const contents = contentsOf(doc!)
    if (contents.length === 0) return
    const sections = doc!.headings.filter((h) => h.level === 2).map((h) => h.anchor)
    expect(contents.filter((e) => !e.nested).map((e) => e.anchor)).toEqual(sections)
    // A section whose ### headings the list names at all must have them all named.
    const listed = new Set(contents.filter((e) => e.nested).map((e) => e.anchor))
    const missing: string[] = []
    let section: string[] = []
    const close = () => {
      if (section.some((a) => listed.has(a))) missing.push(...section.filter((a) => !listed.has(a)))
      section = []
    }
    for (const h of doc!.headings) {
      if (h.level <= 2) close()
      else if (h.level === 3) section.push(h.anchor)
    }
    close()
    expect(missing).toEqual([])
  })

  it("README's Read on lists every doc", () => {
    const readme = read('README.md')!
    const start = readme.lines.findIndex((l) => /^## Read on\s*$/.test(l))
    expect(start).toBeGreaterThanOrEqual(0)
    const end = readme.lines.findIndex((l, i) => i > start && /^##\s/.test(l))
    const section: Doc = { lines: readme.lines.slice(start, end < 0 ? undefined : end), headings: [] }
    const linked = new Set(linksOf(section).map((l) => l.target.split('#')[0]))
    expect(DOCS.filter((d) => d !== 'README.md' && !linked.has(d))).toEqual([])
  })

  it('README stays under 15 KB: depth goes to docs/', () => {
    expect(statSync(path.join(ROOT, 'README.md')).size).toBeLessThan(15 * 1024)
  })

  it("names every route file of src/modules in contracts.md's table, so a path leads to its code", () => {
    const files: string[] = []
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const at = path.join(dir, e.name)
        if (e.isDirectory()) walk(at)
        else if (e.name.endsWith('.rest.ts')) files.push(path.relative(path.join(ROOT, 'src/modules'), at).replace(/\.rest\.ts$/, ''))
      }
    }
    walk(path.join(ROOT, 'src/modules'))
    const table = readFileSync(path.join(ROOT, 'docs/contracts.md'), 'utf8')
    expect(files.filter((file) => !table.includes(`\`${file}.rest.ts\``) && !table.includes(`\`${file}.{rest,graphql}.ts\``))).toEqual([])
  })
})
