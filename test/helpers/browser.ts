import { existsSync } from 'node:fs'

import { type Browser, chromium, type Page } from 'playwright-core'

/**
 * Headless Chromium for page tests: Debian's `chromium` package (CI installs it; playwright-core
 * downloads nothing). Without it the tests skip with the reason.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const chromiumMissing = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  })
}

/** Every URL a page requests (including ones the browser then blocks), from its opening on. */
export function recordRequests(page: Page): string[] {
  const urls: string[] = []
  page.on('request', (request) => urls.push(request.url()))
  return urls
}

/** The URLs that are neither the page's origin nor in-page data (`data:`, `blob:`, `about:`). */
export function elsewhere(urls: string[], origin: string): string[] {
  return urls.filter((url) => !url.startsWith(`${origin}/`) && url !== origin && !/^(data|blob|about):/.test(url))
}
