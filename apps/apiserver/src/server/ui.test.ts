import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { serveWebView, uiContentSecurityPolicy, webViewSummary } from './ui.js';

describe('serveWebView', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kevents-ui-files-'));
  let app: FastifyInstance;
  let bare: FastifyInstance;
  beforeAll(async () => {
    writeFileSync(join(dir, 'index.html'), '<!doctype html><script type="module" src="app.js"></script>');
    writeFileSync(join(dir, 'app.js'), 'console.log(1)');
    writeFileSync(join(dir, 'app.css'), 'body{}');
    app = serveWebView({ app: Fastify({ routerOptions: { ignoreTrailingSlash: true } }) }, dir).app;
    bare = serveWebView({ app: Fastify() }, join(dir, 'missing')).app;
  });
  afterAll(async () => {
    await Promise.all([app.close(), bare.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the three files with a strict CSP and their types', async () => {
    for (const [url, type] of [
      ['/ui/', 'text/html; charset=utf-8'],
      ['/ui/app.js', 'text/javascript; charset=utf-8'],
      ['/ui/app.css', 'text/css; charset=utf-8'],
    ] as const) {
      const res = await app.inject({ url });
      expect([res.statusCode, res.headers['content-type']]).toEqual([200, type]);
      expect(res.headers['content-security-policy']).toBe(uiContentSecurityPolicy);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    expect(uiContentSecurityPolicy).not.toContain('unsafe');
    expect((await app.inject({ url: '/ui/app.js' })).body).toBe('console.log(1)');
  });

  it("names the web view's address in the startup log, or says that it is not built", () => {
    expect(webViewSummary('http://127.0.0.1:8080', dir)).toBe(
      'web view: http://127.0.0.1:8080/ui/ (a timeline of the stored events, in a browser)',
    );
    expect(webViewSummary('http://127.0.0.1:8080', join(dir, 'missing'))).toBe(
      `web view: not built (${join(dir, 'missing', 'index.html')} is missing; npm run build)`,
    );
  });

  it('moves /ui to /ui/ with a relative Location (path prefixes keep working)', async () => {
    const res = await app.inject({ url: '/ui?namespace=a' });
    expect([res.statusCode, res.headers['location']]).toEqual([301, 'ui/']);
  });

  it('answers 404 with a hint when the web view is not built', async () => {
    const res = await bare.inject({ url: '/ui/' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('npm run build');
  });
});
