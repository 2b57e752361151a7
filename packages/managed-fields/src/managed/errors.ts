/**
 * A request answered with 400 BadRequest from the field manager (`errors.NewBadRequest`): an
 * applied object of another kind or version, one that sets `metadata.managedFields`, and one that
 * does not fit the schema (`failed to create typed patch object`: kube-apiserver still answers
 * that one with a plain 500, kubernetes/kubernetes#139253, and PR #139255 makes it this 400 with
 * the same message; an input error of the client's is never a 5xx here).
 */
export class ApplyBadRequestError extends Error {
  override readonly name = 'ApplyBadRequestError';
}

/**
 * The field manager could not do its work (kube returns these as plain errors, which its
 * handlers answer with 500): a stored object that does not fit its schema, undecodable stored
 * managedFields, a merge that fails.
 */
export class FieldManagerError extends Error {
  override readonly name = 'FieldManagerError';
}
