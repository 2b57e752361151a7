/// <reference lib="dom" />
/**
 * The web view in Debian's Chromium (playwright-core) against a real kevents-apiserver: loads under its CSP,
 * shows a created event live, keeps filters in the URL, tells one object's story, draws the timeline, passes
 * axe-core. Skipped with the reason when Chromium is missing, unless KEVENTS_BROWSER_TESTS=required.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import {
  browserSkipReason,
  createEvent,
  eventBody,
  launchChromium,
  startApiserver,
  type Apiserver,
} from './testing/harness.js';

const skip = browserSkipReason();
if (skip) console.log(`browser tests skipped: ${skip}`);
const suite = skip ? describe.skip : describe;

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const minute = 60_000;
// A fixed past window, aligned to the minute, so the chart's buckets are known.
const t0 = Math.floor(Date.now() / minute) * minute - 30 * minute;

suite('web view in Chromium', () => {
  let api: Apiserver;
  let browser: Browser;
  let close: () => Promise<void>;
  const problems: string[] = [];

  const open = async (path = '/ui/'): Promise<Page> => {
    const page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${api.url}${path}`);
    await page.locator('#status', { hasText: 'live' }).waitFor({ timeout: 10_000 });
    return page;
  };
  const rowKeys = (page: Page) => page.locator('#events tbody tr[data-key] td:nth-child(2)').allTextContents();

  beforeAll(async () => {
    [api, { browser, close }] = await Promise.all([startApiserver(), launchChromium()]);
    // shop: web-0 has three events over three minutes (one Warning with a series), db-0 one; ops: one.
    await createEvent(api.url, eventBody({ name: 'a', namespace: 'shop', reason: 'Scheduled', at: t0 + 5_000 }));
    await createEvent(
      api.url,
      eventBody({
        name: 'b',
        namespace: 'shop',
        reason: 'BackOff',
        type: 'Warning',
        at: t0 + minute + 1_000,
        series: { count: 4, last: t0 + minute + 40_000 },
      }),
    );
    await createEvent(api.url, eventBody({ name: 'c', namespace: 'shop', reason: 'Pulled', at: t0 + 2 * minute }));
    await createEvent(
      api.url,
      eventBody({
        name: 'd',
        namespace: 'shop',
        reason: 'Attached',
        object: 'db-0',
        at: t0 + 2 * minute + 10_000,
        related: { kind: 'Pod', name: 'web-0', namespace: 'shop' },
      }),
    );
    await createEvent(
      api.url,
      eventBody({ name: 'e', namespace: 'ops', reason: 'Killing', type: 'Warning', at: t0 + 2 * minute + 20_000 }),
    );
  }, 60_000);

  afterAll(async () => {
    await close?.();
    await api?.stop();
  });

  it('loads under a strict CSP with no inline script, newest first', async () => {
    const res = await fetch(`${api.url}/ui/`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(await res.text()).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const page = await open();
    await expect(rowKeys(page)).resolves.toEqual(['Killing', 'Attached', 'Pulled', 'BackOff', 'Scheduled']);
    await expect(page.locator('tr.warning').count()).resolves.toBe(2);
    expect(problems).toEqual([]);
    // KEVENTS_UI_SCREENSHOT=docs/web-view.png refreshes the README's screenshot.
    const shot = process.env['KEVENTS_UI_SCREENSHOT'];
    if (shot) {
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.locator('#events button', { hasText: 'Pod/shop/web-0' }).first().click();
      await page.locator('#story li').first().waitFor();
      await page.screenshot({ path: shot });
    }
    await page.close();
  });

  it('shows an event created meanwhile within 1 s, without a reload', async () => {
    const page = await open();
    const start = Date.now();
    await createEvent(api.url, eventBody({ name: 'live-1', namespace: 'shop', reason: 'LiveOne', at: Date.now() }));
    await page.locator('#events td', { hasText: 'LiveOne' }).waitFor({ timeout: 1_000 });
    const ms = Date.now() - start;
    console.log(`live event shown in ${ms} ms`);
    expect(ms).toBeLessThanOrEqual(1_000);
    await page.close();
  });

  it('filters become selectors, live in the URL and survive a reload', async () => {
    const page = await open();
    const watched: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/apis/events.k8s.io/v1/')) watched.push(decodeURIComponent(r.url()));
    });
    await page.selectOption('#f-type', 'Warning');
    await page.fill('#f-namespace', 'shop');
    await page.press('#f-namespace', 'Enter');
    await page.waitForFunction(
      () => location.search.includes('namespace=shop') && location.search.includes('type=Warning'),
      undefined,
      { timeout: 5_000 },
    );
    await page.locator('#status', { hasText: '1 of 1' }).waitFor({ timeout: 5_000 });
    await expect(rowKeys(page)).resolves.toEqual(['BackOff']);
    expect(
      watched.some((u) => u.includes('/namespaces/shop/events?') && u.includes('fieldSelector=type=Warning')),
    ).toBe(true);
    await page.reload();
    await page.locator('#status', { hasText: '1 of 1' }).waitFor({ timeout: 5_000 });
    await expect(page.inputValue('#f-type')).resolves.toBe('Warning');
    await expect(page.inputValue('#f-namespace')).resolves.toBe('shop');
    await expect(rowKeys(page)).resolves.toEqual(['BackOff']);
    // The text filter on the note is client side, and in the URL too.
    await page.goto(`${api.url}/ui/?q=of+e`);
    await page.locator('#status', { hasText: '1 of' }).waitFor({ timeout: 5_000 });
    await expect(rowKeys(page)).resolves.toEqual(['Killing']);
    await page.close();
  });

  it('keeps what is typed in a filter while live events re-render the page', async () => {
    const page = await open();
    await page.fill('#f-reason', 'Pulled');
    await createEvent(api.url, eventBody({ name: 'live-2', namespace: 'ops', reason: 'WhileTyping' }));
    await page.locator('#events td', { hasText: 'WhileTyping' }).waitFor({ timeout: 2_000 });
    await expect(page.inputValue('#f-reason')).resolves.toBe('Pulled');
    await page.press('#f-reason', 'Enter');
    await page.waitForFunction(() => location.search === '?reason=Pulled', undefined, { timeout: 5_000 });
    await page.locator('#status', { hasText: '1 of 1' }).waitFor({ timeout: 5_000 });
    await page.close();
  });

  it("tells one object's story: its events (regarding or related) in time order, series expanded", async () => {
    const page = await open('/ui/?namespace=shop');
    await page.locator('#events button', { hasText: 'Pod/shop/web-0' }).first().click();
    await page.waitForFunction(() => location.search.includes('object=Pod%2Fshop%2Fweb-0'));
    const items = await page.locator('#story li').allTextContents();
    expect(items.map((t) => t.split(' ')[2])).toEqual(['Scheduled', 'BackOff', 'Pulled', 'Attached', 'LiveOne']);
    expect(items[1]).toContain('seen 4 times');
    await page.close();
  });

  it('draws one bar group per minute with the counts of each type', async () => {
    const page = await open('/ui/?namespace=shop&to=' + new Date(t0 + 3 * minute).toISOString());
    // The chart is drawn in an effect after the list renders: on a loaded machine "live" shows first.
    await page.waitForFunction(
      () => /\d/.test(document.querySelector('#timeline')?.getAttribute('data-counts') ?? ''),
      undefined,
      {
        timeout: 10_000,
      },
    );
    const counts = JSON.parse((await page.getAttribute('#timeline', 'data-counts'))!);
    expect(counts).toEqual({ Normal: [1, 0, 2], Warning: [0, 1, 0] });
    await expect(page.locator('#timeline canvas').count()).resolves.toBe(1);
    await page.close();
  });

  it('has no serious or critical axe-core violation, and the list is reachable by keyboard', async () => {
    const page = await open('/ui/?object=Pod%2Fshop%2Fweb-0');
    // Through the DevTools protocol: the page's CSP (rightly) refuses an injected inline script.
    await page.evaluate(axeSource);
    const result = (await page.evaluate(() =>
      (window as unknown as { axe: { run: () => Promise<unknown> } }).axe.run(),
    )) as { violations: { id: string; impact: string; nodes: unknown[] }[] };
    const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`)).toEqual([]);
    await page.focus('.scroller');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
    expect(focused).toMatch(/^Pod\//);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.textContent === 'Close');
    await page.close();
  });
});
