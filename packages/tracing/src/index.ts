export { Tracing, startTracing } from './tracing.js';
export type { TracingOptions, EgressDial } from './tracing.js';
export { OtelRequestTrace, privilegedGroups, currentAuditId, auditIdKey } from './request-trace.js';
export type { RequestTracers } from './request-trace.js';
export { samplerFor } from './sampler.js';
export { parseEndpoint, describeAddress, defaultEndpoint } from './endpoint.js';
export type { CollectorAddress } from './endpoint.js';
export { startDialBridge } from './bridge.js';
export type { DialBridge, CollectorDial } from './bridge.js';
