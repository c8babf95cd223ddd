import { createCB, fragment } from 'xmlbuilder2'

import { decimalFromStore, formatDecimalAtLeast } from '../../../core/decimal.ts'
import { uuidv7 } from '../../../core/ids.ts'
import { type LedgerEntryRecord, ledgerEntryRecord } from './account-records.ts'
import { STATEMENT_CSV_COLUMNS, type StatementFormat } from './statements.schemas.ts'
import { type Statement, statementHead } from './statements.ts'

/**
 * A statement written out as it is read (docs/accounts.md, "Statements"): each form is a sequence
 * of text chunks, one per page of entries, so what is held at once is one page whatever the
 * period's length. The figures come first (they were summed before any entry is read).
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

async function* jsonChunks(statement: Statement): AsyncGenerator<string> {
  const head = JSON.stringify(statementHead(statement))
  yield `${head.slice(0, -1)},"entries":[`
  let first = true
  for await (const rows of statement.pages()) {
    yield `${first ? '' : ','}${rows.map((row) => JSON.stringify(ledgerEntryRecord(row))).join(',')}`
    first = false
  }
  yield ']}'
}

/** RFC 4180: a field holding a comma, a quote or a line break is quoted, its quotes doubled. */
function csvField(value: string | null): string {
  if (value === null) return ''
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value
}

const csvRow = (entry: LedgerEntryRecord) => `${STATEMENT_CSV_COLUMNS.map((column) => csvField(entry[column])).join(',')}\r\n`

async function* csvChunks(statement: Statement): AsyncGenerator<string> {
  yield `${STATEMENT_CSV_COLUMNS.join(',')}\r\n`
  for await (const rows of statement.pages()) yield rows.map((row) => csvRow(ledgerEntryRecord(row))).join('')
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
 * it hands over the document's text as elements are added, which is sent page by page. Amounts
 * are unsigned with `CdtDbtInd` (`CRDT`/`DBIT`); each entry's `AcctSvcrRef` is its `uid`, its
 * bank transaction code the ledger kind (proprietary), its `NtryRef` the order's uid when it has one.
 */
async function* camt053Chunks(statement: Statement): AsyncGenerator<string> {
  const head = statementHead(statement)
  const places = Math.max(statement.precision, 0)
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
  yield take()
  const ntry = entryTemplate()
  for await (const rows of statement.pages()) {
    const parts: string[] = []
    for (const row of rows) {
      const entry = ledgerEntryRecord(row)
      const amount = decimalFromStore(row.amount)
      const credit = amount.coefficient > 0n
      const unsigned = formatDecimalAtLeast({ coefficient: credit ? amount.coefficient : -amount.coefficient, scale: amount.scale }, places)
      if (entry.order_uid !== null) parts.push(ntry.withRef[0], xmlText(entry.order_uid), ntry.withRef[1])
      else parts.push(ntry.open)
      parts.push(xmlText(entry.currency), ntry.body[0], unsigned, ntry.body[1], credit ? 'CRDT' : 'DBIT', ntry.body[2])
      parts.push(isoDateTime(entry.created_at), ntry.body[3], entry.uid, ntry.body[4], entry.kind.toUpperCase(), ntry.body[5])
      if (entry.reference !== null) parts.push(ntry.info[0], xmlText(entry.reference), ntry.info[1])
      parts.push(ntry.close)
    }
    yield parts.join('')
  }
  xml.up().up().up().end()
  yield take()
}
