export { FieldPath } from './field/path.js';
export {
  FieldError,
  fieldErrorTypeText,
  omitValue,
  formatBadValue,
  aggregateMessage,
  required,
  invalid,
  forbidden,
  duplicate,
  notFound,
  notSupported,
  tooLong,
  tooMany,
  internalError,
  typeInvalid,
} from './field/error.js';
export type { FieldErrorType } from './field/error.js';
