import type { KubeObject } from '@kevents/api';

/**
 * A core/v1 Event as the apiserver stores one (with the managedFields of its creation), in
 * `namespace`, named `name`, with `extra` members on top: the shape the compact body form is for.
 */
export function coreEvent<T extends KubeObject = KubeObject>(
  namespace: string,
  name: string,
  extra: Record<string, unknown> = {},
): T {
  return {
    metadata: {
      name,
      namespace,
      uid: `00000000-0000-4000-8000-${name.padStart(12, '0').slice(-12)}`,
      creationTimestamp: '2026-01-02T03:04:05Z',
      managedFields: [
        {
          manager: 'kubelet',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2026-01-02T03:04:05Z',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:count': {},
            'f:involvedObject': { 'f:kind': {} },
            'f:message': {},
            'f:metadata': { 'f:labels': {} },
            'f:reason': {},
            '.': {},
          },
        },
      ],
    },
    involvedObject: { kind: 'Pod', namespace, name: 'web-1', uid: 'pod-uid', apiVersion: 'v1' },
    reason: 'Pulled',
    message: 'Successfully pulled image "nginx" in 1.2s',
    type: 'Normal',
    count: 1,
    ...extra,
  } as unknown as T;
}
