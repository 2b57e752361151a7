export { runRestConformance } from './rest-conformance.js';
export type { RestConformanceTarget, RestContext } from './rest-conformance.js';
export { WatchStream, call, escapeFieldValue, expectCode, expectStatus, query, uniqueName } from './http.js';
export type { CallOptions, HttpAnswer, KubeObject, WatchEventLine } from './http.js';
