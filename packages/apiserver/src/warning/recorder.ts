/**
 * Warning headers as kube-apiserver writes them (k8s.io/apiserver/pkg/endpoints/filters/warning.go
 * and `net.NewWarningHeader`): deduplicated, bounded in total size with per-warning truncation
 * once the bound is passed, and made header-safe.
 */

/** Warning text (in runes) sent in full before truncation starts: Kubernetes' `truncateAtTotalRunes`. */
export const maxWarningTotalRunes = 4 * 1024;
/** Runes kept of each warning once truncating: Kubernetes' `truncateItemRunes`. */
export const maxWarningItemRunes = 256;

/** `unicode.IsControl`: C0 and C1 control characters. */
// eslint-disable-next-line no-control-regex
const control = /[\u0000-\u001f\u007f-\u009f]/;
/** A UTF-16 surrogate without its pair (Go holds only valid UTF-8 text here). */
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Non-ASCII runes as Go's `strconv.QuoteToASCII` writes them (`\u00e9`, `\U0001f600`). */
const toASCII = (text: string): string =>
  text.replace(/[\u0080-\u{10ffff}]/gu, (ch) => {
    const cp = ch.codePointAt(0)!;
    return cp > 0xffff ? `\\U${cp.toString(16).padStart(8, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
  });

/**
 * `net.NewWarningHeader(299, "-", text)`: `299 - "<text>"` with `"` and `\` escaped; undefined
 * when Kubernetes refuses the text (control characters, invalid UTF-8), so the warning is
 * dropped, as it is there. Kubernetes writes other runes as raw UTF-8; Node refuses header
 * characters past U+00FF and encodes the others differently by response path, so non-ASCII
 * runes are written as `QuoteToASCII` escapes: the header is plain ASCII on HTTP/1.1 and HTTP/2.
 */
export function warningHeaderValue(text: string): string | undefined {
  if (control.test(text) || loneSurrogate.test(text)) return undefined;
  return `299 - "${toASCII(text).replace(/["\\]/g, '\\$&')}"`;
}

const runes = (s: string): string[] => Array.from(s);

/**
 * The `Warning` header values for a list of warning texts, in order: duplicates and empty texts
 * are dropped; while the texts fit in {@link maxWarningTotalRunes} they are sent whole, and once
 * they do not, every warning is cut to {@link maxWarningItemRunes} runes and no more are added
 * after the bound is reached again (the `recorder.AddWarning` algorithm).
 */
export function warningHeaders(texts: Iterable<string>): string[] {
  const seen = new Set<string>();
  const ordered: string[] = [];
  let headers: string[] = [];
  let written = 0;
  let truncating = false;
  for (const original of texts) {
    if (original.length === 0) continue;
    if (truncating && written >= maxWarningTotalRunes) break;
    if (seen.has(original)) continue;
    seen.add(original);
    ordered.push(original);
    let text = original;
    let length = runes(text).length;
    if (truncating && length > maxWarningItemRunes) {
      text = runes(text).slice(0, maxWarningItemRunes).join('');
      length = maxWarningItemRunes;
    }
    const header = warningHeaderValue(text);
    if (header === undefined) continue;
    if (written + length <= maxWarningTotalRunes || truncating) {
      written += length;
      headers.push(header);
      continue;
    }
    truncating = true;
    written = 0;
    headers = [];
    for (const w of ordered) {
      const r = runes(w);
      const cut = r.length > maxWarningItemRunes ? r.slice(0, maxWarningItemRunes).join('') : w;
      const h = warningHeaderValue(cut);
      if (h === undefined) continue;
      written += Math.min(r.length, maxWarningItemRunes);
      headers.push(h);
    }
  }
  return headers;
}
