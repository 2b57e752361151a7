/** One problem found while walking a value with its schema (`typed.ValidationError`). */
export interface TypedValueProblem {
  /** The path of the value (`.spec.ports[name="x"]`), empty at the root. */
  readonly path: string;
  readonly message: string;
}

/** `ValidationError.Error`: `<path>: <message>`, or the message alone at the root. */
export function problemText(p: TypedValueProblem): string {
  return p.path.length === 0 ? p.message : `${p.path}: ${p.message}`;
}

/**
 * A value that does not fit its schema (`typed.ValidationErrors`): duplicate associative-list
 * keys in an applied configuration, items without keys, scalars of the wrong type, fields the
 * schema does not know. The message is structured-merge-diff's.
 */
export class TypedValueError extends Error {
  override readonly name = 'TypedValueError';
  readonly problems: readonly TypedValueProblem[];
  constructor(problems: readonly TypedValueProblem[]) {
    super(
      problems.length === 1
        ? problemText(problems[0]!)
        : ['errors:', ...problems.map((p) => '  ' + problemText(p))].join('\n'),
    );
    this.problems = problems;
  }
}
