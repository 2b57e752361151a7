/** `EgressSelectorConfiguration` (v1beta1): how the server dials out, per egress name. */
export interface EgressSelectorConfiguration {
  apiVersion: string;
  kind: 'EgressSelectorConfiguration';
  egressSelections?: EgressSelection[];
}

export interface EgressSelection {
  /** `controlplane`, `cluster` or `etcd`; `master` is read as `controlplane`. */
  name?: string;
  connection?: Connection;
}

/** `Direct`, `HTTPConnect` or `GRPC`. */
export type ProtocolType = string;

export interface Connection {
  proxyProtocol?: ProtocolType;
  transport?: Transport;
}

export interface Transport {
  tcp?: TCPTransport;
  uds?: UDSTransport;
}

export interface TCPTransport {
  url?: string;
  tlsConfig?: TLSConfig;
}

export interface TLSConfig {
  caBundle?: string;
  clientKey?: string;
  clientCert?: string;
  tlsServerName?: string;
}

export interface UDSTransport {
  udsName?: string;
}
