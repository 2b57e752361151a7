export {
  encodeProtobuf,
  encodeListEnvelope,
  encodeListEnvelopeParts,
  encodeListItems,
  decodeProtobuf,
  encodeWatchEvent,
  decodeWatchEvent,
  protobufPrefix,
  maxProtobufBytes,
  goAPIVersion,
} from './envelope.js';
export type { DecodeProtobufOptions } from './envelope.js';
export { ProtobufDecodeError } from './errors.js';
export type { ProtobufDecodeErrorCode } from './errors.js';
export { protobufTypes } from './types.js';
export type { ProtobufType } from './types.js';
