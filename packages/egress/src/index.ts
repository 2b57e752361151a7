export { EgressSelector } from './selector.js';
export type { EgressSelectionName, EgressSelectorOptions } from './selector.js';
export type { DialAddress, DialOptions, EgressDialer, EgressProtocol } from './dialer.js';
export { DirectDialer } from './direct.js';
export { HttpConnectDialer, connectExchange } from './http-connect.js';
export type { HttpConnectTransport } from './http-connect.js';
export { GrpcDialer } from './grpc.js';
export { KonnectivityConnection } from './konnectivity/tunnel.js';
export type { KonnectivityTimeouts } from './konnectivity/tunnel.js';
export { konnectivityDescriptor, proxyServiceClient } from './konnectivity/proto.js';
export type { Packet, PacketType } from './konnectivity/proto.js';
export { EgressHttpAgent, EgressHttpsAgent, undiciConnector, egressDispatcher } from './adapters.js';
export type { UndiciConnectOptions } from './adapters.js';
export { EgressDialError } from './errors.js';
export type { EgressErrorCode } from './errors.js';
export { EgressDialerMetrics, KonnectivityClientMetrics } from './metrics.js';
export type {
  EgressMetricProtocol,
  EgressMetricTransport,
  KonnectivityConnectionStatus,
  KonnectivityDialFailureReason,
} from './metrics.js';
