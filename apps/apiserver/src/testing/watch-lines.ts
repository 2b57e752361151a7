/* eslint-disable @typescript-eslint/no-explicit-any */
/** Reads watch lines until `count` arrived or the stream ended (10 s at most), running `during` meanwhile; returns them parsed. */
export async function readWatch(
  url: string,
  count: number,
  headers: Record<string, string> = {},
  during?: () => Promise<unknown>,
): Promise<{ status: number; contentType: string | null; events: any[] }> {
  const ctrl = new AbortController();
  const res = await fetch(url, { signal: ctrl.signal, headers });
  const reader = res.body!.getReader();
  const events: any[] = [];
  let buf = '';
  const pending = during?.();
  const timer = setTimeout(() => ctrl.abort(), 10_000);
  try {
    while (events.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += Buffer.from(value).toString();
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        events.push(JSON.parse(buf.slice(0, i)));
        buf = buf.slice(i + 1);
      }
    }
  } catch {
    // aborted
  } finally {
    clearTimeout(timer);
    ctrl.abort();
  }
  await pending;
  return { status: res.status, contentType: res.headers.get('content-type'), events };
}
