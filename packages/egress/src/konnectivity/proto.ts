import { loadPackageDefinition } from '@grpc/grpc-js';
import type { ServiceClientConstructor } from '@grpc/grpc-js';
import { fromJSON } from '@grpc/proto-loader';

/**
 * The konnectivity client proto (apiserver-network-proxy `konnectivity-client/proto/client/client.proto`,
 * no package, so the method is `/ProxyService/Proxy`), as a protobufjs descriptor:
 *
 * ```proto
 * service ProxyService { rpc Proxy(stream Packet) returns (stream Packet) {} }
 * enum PacketType { DIAL_REQ = 0; DIAL_RSP = 1; CLOSE_REQ = 2; CLOSE_RSP = 3; DATA = 4; DIAL_CLS = 5; DRAIN = 6; }
 * message Packet { PacketType type = 1; oneof payload { DialRequest dialRequest = 2; DialResponse dialResponse = 3;
 *   Data data = 4; CloseRequest closeRequest = 5; CloseResponse closeResponse = 6; CloseDial closeDial = 7; Drain drain = 8; } }
 * message DialRequest { string protocol = 1; string address = 2; int64 random = 3; }
 * message DialResponse { string error = 1; int64 connectID = 2; int64 random = 3; }
 * message CloseRequest { int64 connectID = 1; }
 * message CloseResponse { string error = 1; int64 connectID = 2; }
 * message CloseDial { int64 random = 1; }
 * message Drain {}
 * message Data { int64 connectID = 1; string error = 2; bytes data = 3; }
 * ```
 */
export const konnectivityDescriptor = {
  nested: {
    ProxyService: {
      methods: {
        Proxy: { requestType: 'Packet', requestStream: true, responseType: 'Packet', responseStream: true },
      },
    },
    PacketType: {
      values: { DIAL_REQ: 0, DIAL_RSP: 1, CLOSE_REQ: 2, CLOSE_RSP: 3, DATA: 4, DIAL_CLS: 5, DRAIN: 6 },
    },
    Packet: {
      oneofs: {
        payload: {
          oneof: ['dialRequest', 'dialResponse', 'data', 'closeRequest', 'closeResponse', 'closeDial', 'drain'],
        },
      },
      fields: {
        type: { type: 'PacketType', id: 1 },
        dialRequest: { type: 'DialRequest', id: 2 },
        dialResponse: { type: 'DialResponse', id: 3 },
        data: { type: 'Data', id: 4 },
        closeRequest: { type: 'CloseRequest', id: 5 },
        closeResponse: { type: 'CloseResponse', id: 6 },
        closeDial: { type: 'CloseDial', id: 7 },
        drain: { type: 'Drain', id: 8 },
      },
    },
    DialRequest: {
      fields: {
        protocol: { type: 'string', id: 1 },
        address: { type: 'string', id: 2 },
        random: { type: 'int64', id: 3 },
      },
    },
    DialResponse: {
      fields: {
        error: { type: 'string', id: 1 },
        connectID: { type: 'int64', id: 2 },
        random: { type: 'int64', id: 3 },
      },
    },
    CloseRequest: { fields: { connectID: { type: 'int64', id: 1 } } },
    CloseResponse: { fields: { error: { type: 'string', id: 1 }, connectID: { type: 'int64', id: 2 } } },
    CloseDial: { fields: { random: { type: 'int64', id: 1 } } },
    Drain: { fields: {} },
    Data: {
      fields: { connectID: { type: 'int64', id: 1 }, error: { type: 'string', id: 2 }, data: { type: 'bytes', id: 3 } },
    },
  },
};

/** `PacketType` names (enums travel as their names; int64 fields as decimal strings). */
export type PacketType = 'DIAL_REQ' | 'DIAL_RSP' | 'CLOSE_REQ' | 'CLOSE_RSP' | 'DATA' | 'DIAL_CLS' | 'DRAIN';

/** A `Packet` as @grpc/proto-loader decodes it (`longs: String`, `enums: String`, `oneofs: true`). */
export interface Packet {
  type?: PacketType;
  payload?: string;
  dialRequest?: { protocol?: string; address?: string; random?: string };
  dialResponse?: { error?: string; connectID?: string; random?: string };
  data?: { connectID?: string; error?: string; data?: Buffer };
  closeRequest?: { connectID?: string };
  closeResponse?: { error?: string; connectID?: string };
  closeDial?: { random?: string };
  drain?: Record<string, never>;
}

let loaded: ServiceClientConstructor | undefined;

/** The generated `ProxyService` client class (its `.service` is the definition a server adds). */
export function proxyServiceClient(): ServiceClientConstructor {
  if (!loaded) {
    const def = fromJSON(konnectivityDescriptor as Parameters<typeof fromJSON>[0], {
      longs: String,
      enums: String,
      oneofs: true,
      defaults: false,
    });
    loaded = loadPackageDefinition(def)['ProxyService'] as ServiceClientConstructor;
  }
  return loaded;
}
