import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The files that take longest, longest first. Started first, each runs beside the many short
 * files rather than alone at the end of the run on one worker while the other idles. Vitest orders
 * by the last run's durations when it has them, but a fresh checkout (CI) has none, and then it
 * orders by file size, which put the Chromium pages last.
 */
const LONGEST = [
  'test/fuzz.test.ts',
  'test/pages.test.ts',
  'test/graphql-ws.test.ts',
  'test/first-run.test.ts',
  'test/events-delivery.test.ts',
  'test/rate-limits.test.ts',
  'test/abuse-resistance.test.ts',
  'test/matching-deep-books.test.ts',
  'test/auth-revocation.test.ts',
]

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (file: TestSpecification) => {
      const at = LONGEST.findIndex((name) => file.moduleId.endsWith(`/${name}`))
      return at < 0 ? LONGEST.length : at
    }
    return sorted
      .map((file, index) => ({ file, index }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index)
      .map(({ file }) => file)
  }
}
