import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { chromiumMissing, elsewhere, launchChromium, recordRequests } from './helpers/browser.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

// CI installs Chromium (.ci/run): there a missing browser fails the tests instead of skipping them.
const skip = chromiumMissing !== undefined && !process.env.CI
if (skip) console.warn(`pages.test.ts: skipped, ${chromiumMissing}`)

describe.skipIf(skip)('pages in headless Chromium, offline', () => {
  let server: TestServer
  let browser: Browser
  beforeAll(async () => {
    server = await startTestServer()
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('/docs renders the API reference with the login operation, and requests nothing from another origin', async () => {
    const page = await browser.newPage()
    const requests = recordRequests(page)
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    await page.goto(`${server.url}/docs`)
    const login = page.locator('#operations-auth-login')
    await login.waitFor({ timeout: 30_000 })
    expect(await login.locator('.opblock-summary-path').first().innerText()).toContain('/api/sso/v1/auth/login')
    // The aliases are there, marked deprecated.
    await page.locator('#operations-auth-loginLegacy.opblock-deprecated').waitFor()
    // Open it: the request body and the 401 answers render from the document.
    await login.locator('.opblock-summary').first().click()
    await login.locator('.responses-table').first().waitFor()
    expect(await login.innerText()).toContain('invalid_credentials')
    await page.waitForLoadState('networkidle')
    expect(elsewhere(requests, server.url)).toEqual([])
    expect(requests).toContain(`${server.url}/openapi.json`)
    expect(errors).toEqual([])
    await page.close()
  })

  it('GraphiQL opens on a tab that shows how to log in and where the token goes, requesting nothing elsewhere', async () => {
    const page = await browser.newPage()
    const requests = recordRequests(page)
    await page.goto(`${server.url}/graphql`, { waitUntil: 'load' })
    const editor = page.locator('.graphiql-query-editor .view-lines')
    await editor.filter({ hasText: 'mutation Login' }).waitFor({ timeout: 30_000 })
    // Monaco renders spaces as U+00A0.
    const text = (await editor.innerText()).replace(/\u00a0/g, ' ')
    expect(text).toContain('login(clientId: $clientId, clientSecret: $clientSecret)')
    expect(text).toContain('"Authorization": "Bearer <tokens.access>"')
    expect(await page.locator('.graphiql-tab').allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining('Login'), expect.stringContaining('Symbols')]),
    )
    await page.waitForLoadState('networkidle')
    expect(elsewhere(requests, server.url)).toEqual([])
    await page.close()
  })
})
