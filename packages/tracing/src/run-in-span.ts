import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Context, Span } from '@opentelemetry/api';

/**
 * Runs `fn` with `span` active under `parent`, and ends the span when `fn` settles: a rejection sets
 * the span's status to ERROR with the error's message, and is passed on.
 */
export function runInSpan<T>(span: Span, parent: Context, fn: () => Promise<T>): Promise<T> {
  return context.with(trace.setSpan(parent, span), fn).then(
    (v) => {
      span.end();
      return v;
    },
    (err: unknown) => {
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      span.end();
      throw err;
    },
  );
}
