export { OtlpTraceReceiver } from './receiver.js';
export type { ReceivedSpan, AttributeValue } from './receiver.js';
export { otlpTraceDescriptor } from './otlp-proto.js';
