export { ConnectProxy } from './connect-proxy.js';
export type { ConnectProxyMode, ConnectRecord } from './connect-proxy.js';
export { KonnectivityServer } from './konnectivity-server.js';
export type { KonnectivityServerMode } from './konnectivity-server.js';
export { MutualTlsFront, Tinyproxy } from './tinyproxy.js';
