import { describe, expect, it } from '@jest/globals';
import { parseWriteOptions } from './write-options.js';
import { apiFailure } from '../testing/api-failure.js';

describe('parseWriteOptions', () => {
  it('reads dryRun, fieldManager and force', () => {
    expect(parseWriteOptions({}, { kind: 'CreateOptions' })).toEqual({ dryRun: false, fieldManager: '', force: false });
    expect(
      parseWriteOptions({ dryRun: 'All', fieldManager: 'me', force: 'true' }, { kind: 'PatchOptions', apply: true }),
    ).toEqual({ dryRun: true, fieldManager: 'me', force: true });
    // Kubernetes' parameter codec: only "false" and "0" are false.
    expect(parseWriteOptions({ fieldManager: 'me', force: 'FALSE' }, { kind: 'PatchOptions', apply: true }).force).toBe(
      false,
    );
    expect(parseWriteOptions({ fieldManager: 'me', force: '' }, { kind: 'PatchOptions', apply: true }).force).toBe(
      true,
    );
  });

  it('requires fieldManager for an apply, with the 422 kube-apiserver answers', () => {
    const err = apiFailure(() => parseWriteOptions({}, { kind: 'PatchOptions', apply: true }));
    expect(err.status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
      details: {
        group: 'meta.k8s.io',
        kind: 'PatchOptions',
        causes: [
          {
            reason: 'FieldValueRequired',
            message: 'Required value: is required for apply patch',
            field: 'fieldManager',
          },
        ],
      },
    });
  });

  it('forbids force on other patches, even force=false', () => {
    for (const force of ['true', 'false']) {
      const err = apiFailure(() => parseWriteOptions({ force }, { kind: 'PatchOptions', apply: false }));
      expect(err.status.message).toBe(
        'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
      );
    }
  });

  it('validates fieldManager (length, printable characters) and dryRun together, in kube order', () => {
    const long = 'm'.repeat(129);
    const err = apiFailure(() => parseWriteOptions({ fieldManager: long, dryRun: 'x' }, { kind: 'UpdateOptions' }));
    expect(err.status.message).toBe(
      'UpdateOptions.meta.k8s.io "" is invalid: [fieldManager: Too long: may not be more than 128 bytes, dryRun: Unsupported value: []string{"x"}: supported values: "All"]',
    );
    expect(
      apiFailure(() => parseWriteOptions({ fieldManager: 'a\u0007' }, { kind: 'CreateOptions' })).status.message,
    ).toBe(
      'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "a\\a": invalid character U+0007 (at position 1)',
    );
    expect(parseWriteOptions({ fieldManager: 'm'.repeat(128) }, { kind: 'CreateOptions' }).fieldManager).toHaveLength(
      128,
    );
  });
});
