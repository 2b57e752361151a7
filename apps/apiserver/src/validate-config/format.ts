import { fieldErrorTypeText, type FieldError } from '@kevents/validation';

/** One error of `validate-config -o json`. */
export interface ConfigErrorRecord {
  file: string;
  field: string;
  /** The Kubernetes ErrorType name, e.g. FieldValueRequired. */
  type: string;
  value: unknown;
  detail: string;
}

/**
 * `FILE: <path>: <Type text>: <value>: <detail>`, one line per error (document errors have no path;
 * the line breaks of a CEL caret diagram are folded into spaces).
 */
export function formatConfigErrors(file: string, errors: readonly FieldError[]): string[] {
  return errors.map((e) => {
    const text = e.field === '' ? e.detail || fieldErrorTypeText[e.type] : e.toString();
    return `${file}: ${text.replace(/\n/g, ' ')}`;
  });
}

/** The `-o json` records of a file's errors. */
export function configErrorRecords(file: string, errors: readonly FieldError[]): ConfigErrorRecord[] {
  return errors.map((e) => ({ file, field: e.field, type: e.type, value: e.jsonValue() ?? null, detail: e.detail }));
}
