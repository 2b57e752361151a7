/**
 * What went wrong reading a protobuf body, one stable code per class of Go error (the message is
 * Go's own where kube-apiserver's decoder has one).
 */
export type ProtobufDecodeErrorCode =
  | 'EmptyData'
  | 'MissingPrefix'
  | 'EmptyBody'
  | 'TooLarge'
  | 'UnexpectedEOF'
  | 'IntegerOverflow'
  | 'InvalidLength'
  | 'WrongWireType'
  | 'IllegalTag'
  | 'EndGroupForNonGroup'
  | 'IllegalWireType'
  | 'UnexpectedEndOfGroup'
  | 'InvalidFieldsV1'
  /** More fields than `DecodeProtobufOptions.maxFields` (kevents' own bound; kube has none). */
  | 'TooManyFields';

/**
 * The one error `decodeProtobuf` throws: a stable `code` and, where kube-apiserver's decoder (the
 * apimachinery protobuf serializer over gogo-protobuf generated code) has one, Go's message, e.g.
 * `unexpected EOF`, `proto: integer overflow`, `proto: wrong wireType = 0 for field Reason`.
 */
export class ProtobufDecodeError extends Error {
  override readonly name = 'ProtobufDecodeError';
  /** The class of error, stable across releases. */
  readonly code: ProtobufDecodeErrorCode;

  constructor(code: ProtobufDecodeErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** `io.ErrUnexpectedEOF`. */
export const unexpectedEOF = (): ProtobufDecodeError => new ProtobufDecodeError('UnexpectedEOF', 'unexpected EOF');
/** `ErrIntOverflowGenerated`. */
export const intOverflow = (): ProtobufDecodeError =>
  new ProtobufDecodeError('IntegerOverflow', 'proto: integer overflow');
/** `ErrInvalidLengthGenerated`. */
export const invalidLength = (): ProtobufDecodeError =>
  new ProtobufDecodeError('InvalidLength', 'proto: negative length found during unmarshaling');
