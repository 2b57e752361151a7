import type { IncomingHttpHeaders } from 'node:http';

/** The header lines of a request as `[name, value]` pairs, names lower-cased, repeats kept apart. */
export type HeaderLines = readonly (readonly [string, string])[];

/** The lines of a request's headers (`rawHeaders`; `headers` when a request has none). */
export function headerLines(req: {
  readonly rawHeaders?: readonly string[];
  readonly headers: IncomingHttpHeaders;
}): HeaderLines {
  const out: [string, string][] = [];
  const raw = req.rawHeaders;
  if (raw && raw.length) {
    for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!.toLowerCase(), raw[i + 1]!]);
    return out;
  }
  for (const [k, v] of Object.entries(req.headers)) {
    if (Array.isArray(v)) for (const x of v) out.push([k, x]);
    else if (v !== undefined) out.push([k, v]);
  }
  return out;
}
