import { coreEventSchema, objectMetaSchema, objectReferenceSchema, timeToMillis } from '@kevents/api';
import type { CoreEvent, TableColumnDefinition } from '@kevents/api';
import { humanDuration } from '@kevents/apiserver';

const doc = (schema: { fields: readonly { name: string; description: string }[] }, name: string): string =>
  schema.fields.find((f) => f.name === name)?.description ?? '';

const col = (name: string, priority: number, description: string, format = ''): TableColumnDefinition => ({
  name,
  type: 'string',
  format,
  description,
  priority,
});

/** Kubernetes' event columns (pkg/printers/internalversion/printers.go), always Wide. */
export const eventColumns: readonly TableColumnDefinition[] = [
  col('Last Seen', 0, doc(coreEventSchema, 'lastTimestamp')),
  col('Type', 0, doc(coreEventSchema, 'type')),
  col('Reason', 0, doc(coreEventSchema, 'reason')),
  col('Object', 0, doc(coreEventSchema, 'involvedObject')),
  col('Subobject', 1, doc(objectReferenceSchema, 'fieldPath')),
  col('Source', 1, doc(coreEventSchema, 'source')),
  col('Message', 0, doc(coreEventSchema, 'message')),
  col('First Seen', 1, doc(coreEventSchema, 'firstTimestamp')),
  col('Count', 1, doc(coreEventSchema, 'count')),
  col('Name', 1, doc(objectMetaSchema, 'name'), 'name'),
];

const since = (value: string | null | undefined, nowMs: number): string => {
  const t = timeToMillis(value);
  return Number.isNaN(t) ? '<unknown>' : humanDuration(nowMs - t);
};

/** The ten cells of one event row (`printEvent` with Wide). */
export function eventCells(e: CoreEvent, nowMs: number = Date.now()): unknown[] {
  const first = e.firstTimestamp ? since(e.firstTimestamp, nowMs) : since(e.eventTime, nowMs);
  let last = e.lastTimestamp ? since(e.lastTimestamp, nowMs) : first;
  let count = e.count ?? 0;
  if (e.series) {
    last = since(e.series.lastObservedTime, nowMs);
    count = e.series.count ?? 0;
  } else if (count === 0) {
    count = 1;
  }
  const io = e.involvedObject ?? {};
  const kind = (io.kind ?? '').toLowerCase();
  const target = io.name ? `${kind}/${io.name}` : kind;
  const component = e.source?.component || e.reportingComponent || '';
  const instance = e.source?.host || e.reportingInstance || '';
  const source = instance ? `${component}, ${instance}` : component;
  return [
    last,
    e.type ?? '',
    e.reason ?? '',
    target,
    io.fieldPath ?? '',
    source,
    (e.message ?? '').trim(),
    first,
    count,
    e.metadata.name ?? '',
  ];
}
