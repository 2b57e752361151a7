/**
 * A request kube answers with 400 BadRequest from the field manager (`errors.NewBadRequest`):
 * an applied object of another kind or version, or one that sets `metadata.managedFields`.
 */
export class ApplyBadRequestError extends Error {
  override readonly name = 'ApplyBadRequestError';
}

/**
 * The field manager could not do its work (kube returns these as plain errors, which its
 * handlers answer with 500): objects that do not fit their schema, undecodable managedFields.
 */
export class FieldManagerError extends Error {
  override readonly name = 'FieldManagerError';
}
