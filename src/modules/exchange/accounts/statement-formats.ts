import { createCB, fragment } from 'xmlbuilder2'

import { decimalFromStore, formatDecimalAtLeast } from '../../../core/decimal.ts'
import { uuidv7 } from '../../../core/ids.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import type { StatementEntry } from './statements.repository.ts'
import { STATEMENT_CSV_COLUMNS, type StatementFormat } from './statements.schemas.ts'
import { type Statement, statementHead } from './statements.ts'

/**
 * A statement written out as it is read (docs/accounts.md, "Statements"): each form is a sequence
 * of text chunks of about CHUNK_CHARS, so what is held at once is a page of rows and a chunk
 * whatever the period's length. The figures come first (they were summed before any entry is read).
 */
export function statementChunks(statement: Statement, format: StatementFormat): AsyncGenerator<string> {
  if (format === 'csv') return csvChunks(statement)
  if (format === 'camt053') return camt053Chunks(statement)
  return jsonChunks(statement)
}

export const STATEMENT_CONTENT_TYPES: Record<StatementFormat, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  camt053: 'application/xml; charset=utf-8',
}

/**
 * Characters per chunk handed to the writer: the socket gets text as soon as this much is
 * rendered, whatever the page size, and no page's text is ever held whole.
 */
const CHUNK_CHARS = 32 * 1024

/** Rows rendered one by one, handed over in chunks of about CHUNK_CHARS characters. */
async function* chunked(statement: Statement, head: string, render: (entry: StatementEntry) => string, separator = ''): AsyncGenerator<string> {
  let text = head
  let first = true
  for await (const rows of statement.pages()) {
    for (const row of rows) {
      if (first) first = false
      else text += separator
      text += render(row)
      if (text.length >= CHUNK_CHARS) {
        yield text
        text = ''
      }
    }
  }
  if (text) yield text
}

/**
 * PostgreSQL's `numeric` text at its currency's places, as formatDecimalAtLeast renders it (at
 * least `places` digits after the point, more only when the value has them): by slicing the text,
 * not through a bigint, since every entry has two amounts. Text in another form takes the exact path.
 */
export function storedDecimalAtLeast(places: number): (text: string) => string {
  const wanted = Math.max(places, 0)
  // What a value with f fraction digits lacks: PAD[f].
  const pad = Array.from({ length: wanted + 1 }, (_, f) => (f >= wanted ? '' : `${f === 0 ? '.' : ''}${'0'.repeat(wanted - f)}`))
  return (text) => {
    const negative = text.charCodeAt(0) === 45
    const start = negative ? 1 : 0
    const dot = text.indexOf('.')
    const whole = dot < 0 ? text.length : dot
    // No sign but `-`, digits on both sides of the point, no leading zero (PostgreSQL writes none).
    if (!PLAIN_DECIMAL.test(text) || (whole - start > 1 && text.charCodeAt(start) === 48)) return formatDecimalAtLeast(decimalFromStore(text), wanted)
    let end = text.length
    if (dot >= 0) {
      while (end > dot + 1 && text.charCodeAt(end - 1) === 48) end--
      if (end === dot + 1) end = dot
    }
    const fraction = end > whole ? end - whole - 1 : 0
    // Zero has no sign.
    const value = negative && end === 2 && text.charCodeAt(1) === 48 ? '0' : text.slice(0, end)
    return fraction >= wanted ? value : `${value}${pad[fraction]}`
  }
}
const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/

/** Few kinds, many entries: each rendered once per statement. */
function memo(render: (value: string) => string): (value: string) => string {
  const seen = new Map<string, string>()
  return (value) => {
    let text = seen.get(value)
    if (text === undefined) seen.set(value, (text = render(value)))
    return text
  }
}

/**
 * One entry as ledgerEntryRecord's JSON, keys in its order (the tests compare the two), built as
 * text: uids and timestamps need no escaping, the tenant and currency are the statement's.
 */
async function* jsonChunks(statement: Statement): AsyncGenerator<string> {
  const head = JSON.stringify(statementHead(statement))
  const at = storedDecimalAtLeast(statement.precision)
  const owner = `","tenant_id":${JSON.stringify(statement.tenantId)},"currency":${JSON.stringify(statement.currency)},"amount":"`
  const kind = memo((value) => JSON.stringify(value))
  const uid = (value: string | null) => (value === null ? 'null' : `"${value}"`)
  const render = (e: StatementEntry) =>
    `{"uid":"${e.uid}","created_at":"${formatTimestamp(e.created_at)}${owner}${at(e.amount)}","balance_after":"${at(e.balance_after)}","kind":${kind(e.kind)},"order_uid":${uid(e.order_uid)},"trade_uid":${uid(e.trade_uid)},"reference":${e.reference === null ? 'null' : JSON.stringify(e.reference)}}`
  yield* chunked(statement, `${head.slice(0, -1)},"entries":[`, render, ',')
  yield ']}'
}

/** RFC 4180: a field holding a comma, a quote or a line break is quoted, its quotes doubled. */
function csvField(value: string | null): string {
  if (value === null) return ''
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value
}

/** One row per entry in STATEMENT_CSV_COLUMNS' order. */
async function* csvChunks(statement: Statement): AsyncGenerator<string> {
  const at = storedDecimalAtLeast(statement.precision)
  const kind = memo(csvField)
  const render = (e: StatementEntry) =>
    `${formatTimestamp(e.created_at)},${e.uid},${kind(e.kind)},${at(e.amount)},${at(e.balance_after)},${e.order_uid ?? ''},${e.trade_uid ?? ''},${csvField(e.reference)}\r\n`
  yield* chunked(statement, `${STATEMENT_CSV_COLUMNS.join(',')}\r\n`, render)
}

/**
 * One `Ntry`, built once by xmlbuilder2 with markers where the values go, then filled per entry:
 * building each entry's elements through the builder costs about a millisecond per entry, which
 * a year of a million entries cannot afford (docs/performance.md, "Statements"). The values are
 * escaped as the builder escapes text (`xmlText`).
 */
function entryTemplate() {
  const marker = (name: string) => `@@${name}@@`
  const frag = fragment()
  frag
    .ele('Ntry')
    .ele('NtryRef')
    .txt(marker('REF'))
    .up()
    .ele('Amt', { Ccy: marker('CCY') })
    .txt(marker('AMT'))
    .up()
    .ele('CdtDbtInd')
    .txt(marker('CDI'))
    .up()
    .ele('Sts')
    .ele('Cd')
    .txt('BOOK')
    .up()
    .up()
    .ele('BookgDt')
    .ele('DtTm')
    .txt(marker('AT'))
    .up()
    .up()
    .ele('AcctSvcrRef')
    .txt(marker('UID'))
    .up()
    .ele('BkTxCd')
    .ele('Prtry')
    .ele('Cd')
    .txt(marker('KIND'))
    .up()
    .up()
    .up()
    .ele('AddtlNtryInf')
    .txt(marker('INFO'))
  const text = frag.end({ prettyPrint: false })
  const [open, afterRef] = text.split(marker('REF')) as [string, string]
  const [refClose, afterCcy] = afterRef.split('<Amt') as [string, string]
  const [beforeCcy, body] = `<Amt${afterCcy}`.split(marker('CCY')) as [string, string]
  const [main, info] = body.split('<AddtlNtryInf>') as [string, string]
  const pieces = main.split(/@@(?:AMT|CDI|AT|UID|KIND)@@/)
  const [infoText, close] = `<AddtlNtryInf>${info}`.split(marker('INFO')) as [string, string]
  const ntryOpen = open.slice(0, open.indexOf('<NtryRef>'))
  return {
    open: `${ntryOpen}${beforeCcy}`,
    withRef: [open, `${refClose}${beforeCcy}`] as const,
    body: pieces as [string, string, string, string, string, string],
    info: [infoText, close.slice(0, close.indexOf('</Ntry>'))] as const,
    close: '</Ntry>',
  }
}

// XML 1.0 allows tab, LF, CR and from U+0020 on (not the surrogates alone, U+FFFE, U+FFFF).
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }

/** Text (or an attribute's value) as XML: markup characters escaped, characters XML cannot carry replaced by U+FFFD. */
export function xmlText(value: string): string {
  return value.replace(NOT_XML, '\uFFFD').replace(/[&<>"]/g, (c) => ESCAPES[c]!)
}

export const CAMT053_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.08'

/** ISO 20022 date-times: UTC with its zone. */
const isoDateTime = (formatted: string) => `${formatted}Z`
/** An identifier of at most 35 characters (Max35Text): a UUIDv7 without its dashes. */
const max35Id = () => uuidv7().replace(/-/g, '')

/**
 * ISO 20022 camt.053.001.08 (BankToCustomerStatement), built with xmlbuilder2's callback builder:
 * it hands over the document's text as elements are added, which is sent in chunks. Amounts
 * are unsigned with `CdtDbtInd` (`CRDT`/`DBIT`); each entry's `AcctSvcrRef` is its `uid`, its
 * bank transaction code the ledger kind (proprietary), its `NtryRef` the order's uid when it has one.
 */
async function* camt053Chunks(statement: Statement): AsyncGenerator<string> {
  const head = statementHead(statement)
  let buffer: string[] = []
  const xml = createCB({ data: (chunk: string) => void buffer.push(chunk), prettyPrint: false })
  const take = () => {
    const text = buffer.join('')
    buffer = []
    return text
  }
  const created = isoDateTime(new Date().toISOString().slice(0, 23))
  const balance = (code: 'OPBD' | 'CLBD', amount: string, at: string) =>
    xml
      .ele('Bal')
      .ele('Tp')
      .ele('CdOrPrtry')
      .ele('Cd')
      .txt(code)
      .up()
      .up()
      .up()
      .ele('Amt', { Ccy: head.currency })
      .txt(amount)
      .up()
      .ele('CdtDbtInd')
      .txt('CRDT')
      .up()
      .ele('Dt')
      .ele('DtTm')
      .txt(isoDateTime(at))
      .up()
      .up()
      .up()
  const summary = (element: 'TtlCdtNtries' | 'TtlDbtNtries', count: number, sum: string) =>
    xml.ele(element).ele('NbOfNtries').txt(String(count)).up().ele('Sum').txt(sum).up().up()

  xml.dec({ version: '1.0', encoding: 'UTF-8' }).ele(CAMT053_NAMESPACE, 'Document').ele('BkToCstmrStmt')
  xml.ele('GrpHdr').ele('MsgId').txt(max35Id()).up().ele('CreDtTm').txt(created).up().up()
  xml.ele('Stmt').ele('Id').txt(max35Id()).up().ele('CreDtTm').txt(created).up()
  xml.ele('FrToDt').ele('FrDtTm').txt(isoDateTime(head.from)).up().ele('ToDtTm').txt(isoDateTime(head.to)).up().up()
  xml.ele('Acct').ele('Id').ele('Othr').ele('Id').txt(head.tenant_id).up().up().up().ele('Ccy').txt(head.currency).up().up()
  balance('OPBD', head.opening_balance, head.from)
  balance('CLBD', head.closing_balance, head.to)
  xml.ele('TxsSummry')
  xml.ele('TtlNtries').ele('NbOfNtries').txt(String(head.entry_count)).up().up()
  summary('TtlCdtNtries', Number(statement.totals.credit_count), head.total_credits)
  summary('TtlDbtNtries', Number(statement.totals.debit_count), head.total_debits)
  xml.up()
  const ntry = entryTemplate()
  const at = storedDecimalAtLeast(statement.precision)
  const currency = xmlText(statement.currency)
  const kind = memo((value) => xmlText(value.toUpperCase()))
  const render = (e: StatementEntry) => {
    const debit = e.amount.charCodeAt(0) === 45
    const amount = at(debit ? e.amount.slice(1) : e.amount)
    // A zero amount (none is written: docs/accounts.md) would be a debit, as its sign is not positive.
    const credit = !debit && !ZERO.test(amount)
    const open = e.order_uid === null ? ntry.open : `${ntry.withRef[0]}${xmlText(e.order_uid)}${ntry.withRef[1]}`
    const info = e.reference === null ? '' : `${ntry.info[0]}${xmlText(e.reference)}${ntry.info[1]}`
    return `${open}${currency}${ntry.body[0]}${amount}${ntry.body[1]}${credit ? 'CRDT' : 'DBIT'}${ntry.body[2]}${isoDateTime(formatTimestamp(e.created_at))}${ntry.body[3]}${e.uid}${ntry.body[4]}${kind(e.kind)}${ntry.body[5]}${info}${ntry.close}`
  }
  yield* chunked(statement, take(), render)
  xml.up().up().up().end()
  yield take()
}

const ZERO = /^[0.]*$/
