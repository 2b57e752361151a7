export { runRestConformance } from './rest-conformance.js';
export type { RestConformanceTarget, RestContext } from './rest-conformance.js';
export { WatchStream, call, escapeFieldValue, expectCode, expectStatus, query, uniqueName } from './http.js';
export type { CallOptions, HttpAnswer, KubeObject, WatchEventLine } from './http.js';
export { discoverTargets, fuzzServer, hostileRequests, judge, seedObjects, validObject } from './hostile-requests.js';
export type {
  BodyOptions,
  FuzzOptions,
  FuzzReport,
  FuzzTarget,
  HostileRequest,
  ValidObjectGenerator,
} from './hostile-requests.js';
