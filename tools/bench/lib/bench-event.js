/**
 * The events.k8s.io/v1 Event every create benchmark posts (generated names, namespace `bench`):
 * the size and shape of what controllers write.
 */
export const benchEvent = JSON.stringify({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { generateName: 'bench-', namespace: 'bench' },
  eventTime: '2026-01-02T03:04:05.123456Z',
  reportingController: 'example.com/bench',
  reportingInstance: 'bench-1',
  action: 'Benchmarked',
  reason: 'Benchmark',
  type: 'Normal',
  note: 'a benchmark event with a note of ordinary length, as controllers write them',
  regarding: {
    kind: 'Pod',
    namespace: 'bench',
    name: 'web-0',
    uid: '0b7a3f4e-8a1c-4c44-9a55-d2f0a4f1f7aa',
    apiVersion: 'v1',
  },
});
