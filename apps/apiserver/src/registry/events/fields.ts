import type { CoreEvent } from '@kevents/api';

/** The internal field labels of events (`EventToSelectableFields`). */
const eventFieldLabels = [
  'metadata.name',
  'metadata.namespace',
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
] as const;

const labelSet: ReadonlySet<string> = new Set(eventFieldLabels);

/** core/v1 label conversion: the internal labels themselves. */
export const coreFieldLabel = (label: string): string | undefined => (labelSet.has(label) ? label : undefined);

/** events.k8s.io/v1 label conversion (pkg/apis/events/v1/conversion.go). */
export function eventsV1FieldLabel(label: string): string | undefined {
  if (label.startsWith('regarding.')) {
    const mapped = `involvedObject.${label.slice('regarding.'.length)}`;
    return labelSet.has(mapped) ? mapped : undefined;
  }
  switch (label) {
    case 'reportingController':
      return 'reportingComponent';
    case 'reason':
    case 'type':
    case 'source':
    case 'metadata.namespace':
    case 'metadata.name':
      return label;
    default:
      return undefined;
  }
}

/** The value of an internal field label on a stored event. */
export function eventFieldValue(e: CoreEvent, label: string): string {
  switch (label) {
    case 'metadata.name':
      return e.metadata.name ?? '';
    case 'metadata.namespace':
      return e.metadata.namespace ?? '';
    case 'reason':
      return e.reason ?? '';
    case 'type':
      return e.type ?? '';
    case 'reportingComponent':
      return e.reportingComponent ?? '';
    case 'source':
      return e.source?.component || e.reportingComponent || '';
    default: {
      const key = label.slice('involvedObject.'.length) as keyof CoreEvent['involvedObject'];
      return e.involvedObject?.[key] ?? '';
    }
  }
}
