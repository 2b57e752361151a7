import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApiServer } from '@kevents/apiserver';

/**
 * Where the web view's built files are: `$KEVENTS_UI_DIR`, else `dist/ui` of this package, where
 * `npm run build` (apps/ui/build.js) copies them and the container image ships them.
 */
export const defaultUiDir = (): string =>
  process.env['KEVENTS_UI_DIR'] || fileURLToPath(new URL('../ui/', import.meta.url));

/**
 * The page's Content-Security-Policy: scripts, styles and API calls from this origin only, no inline
 * script or style element, no framing, no plugins, no form posts elsewhere.
 */
export const uiContentSecurityPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The exact paths served (exact, so an AuthenticationConfiguration's anonymous `conditions` can list them). */
export const uiFiles: Readonly<Record<string, { file: string; type: string }>> = {
  '/ui/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/ui/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/ui/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

/** The startup log's line about the web view of the server at `url`: where it is, or that it is not built. */
export function webViewSummary(url: string, dir: string = defaultUiDir()): string {
  return existsSync(join(dir, 'index.html'))
    ? `web view: ${url}/ui/ (a timeline of the stored events, in a browser)`
    : `web view: not built (${join(dir, 'index.html')} is missing; npm run build)`;
}

/**
 * Serves the web view (apps/ui) at `/ui/`, behind the same authentication and authorization as every
 * other non-resource path; `/ui` redirects to `/ui/`. Without a build, `/ui/` answers 404 with a hint.
 */
export function serveWebView<T extends Pick<ApiServer, 'app'>>(server: T, dir: string = defaultUiDir()): T {
  const app = server.app;
  const headers = {
    'Content-Security-Policy': uiContentSecurityPolicy,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cache-Control': 'no-cache',
  };
  for (const [path, { file, type }] of Object.entries(uiFiles)) {
    const full = join(dir, file);
    const body = existsSync(full) ? readFileSync(full) : null;
    app.get(path, async (req, reply) => {
      // The router ignores a trailing slash: `/ui` must still move to `/ui/`, or the page's relative URLs break.
      // Relative, so it also works behind a path prefix (kubectl proxy, an ingress).
      if (path === '/ui/' && !req.originalUrl.split('?')[0]!.endsWith('/')) return reply.redirect('ui/', 301);
      if (!body) {
        return reply
          .code(404)
          .type('text/plain; charset=utf-8')
          .send(`The web view is not built (${full} is missing): run \`npm run build\`.\n`);
      }
      return reply.headers(headers).type(type).send(body);
    });
  }
  return server;
}
