#!/usr/bin/env node
// A local OTLP/gRPC trace receiver (the one the tests use): prints one line per span it is sent.
// Usage: node tools/dev/otlp-receiver.js [--address=127.0.0.1:4317]   (after npm run build)
import { OtlpTraceReceiver } from '@kevents/tracing/testing';

const usage = `Usage: node tools/dev/otlp-receiver.js [--address=HOST:PORT]   (after npm run build)
A local OTLP/gRPC trace receiver: prints one line per span it is sent, until interrupted.
  --address=HOST:PORT  where it listens (default 127.0.0.1:4317, the TracingConfiguration's default endpoint)
`;
const unknown = process.argv.slice(2).filter((a) => !a.startsWith('--address='));
if (unknown.length) {
  const help = unknown.includes('--help') || unknown.includes('-h');
  (help ? process.stdout : process.stderr).write(
    help ? usage : `otlp-receiver: unknown argument ${unknown[0]}\n${usage}`,
  );
  process.exit(help ? 0 : 2);
}
const address = process.argv.find((a) => a.startsWith('--address='))?.split('=')[1] ?? '127.0.0.1:4317';
const receiver = await OtlpTraceReceiver.start({ address });
receiver.onSpan = (s) => {
  const ms = Number(s.endTimeUnixNano - s.startTimeUnixNano) / 1e6;
  const parent = s.parentSpanId ? ` parent=${s.parentSpanId}` : ' (root)';
  const audit = s.attributes['audit-id'] ? ` audit-id=${s.attributes['audit-id']}` : '';
  console.log(
    `${s.resource['service.name']} trace=${s.traceId} span=${s.spanId}${parent} ${ms.toFixed(2)}ms ${s.name}${audit}`,
  );
};
console.log(`OTLP trace receiver listening on ${receiver.endpoint}`);
process.on('SIGINT', () => void receiver.close().then(() => process.exit(0)));
