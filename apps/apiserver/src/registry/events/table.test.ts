import { describe, expect, it } from '@jest/globals';
import type { CoreEvent } from '@kevents/api';
import { eventCells, eventColumns } from './table.js';
import { humanDuration } from '@kevents/apiserver';

const now = Date.parse('2026-01-01T12:00:00Z');
const base = (extra: Partial<CoreEvent> = {}): CoreEvent => ({
  metadata: { name: 'ev-1', namespace: 'ns' },
  involvedObject: { kind: 'Pod', name: 'web-0', fieldPath: 'spec.containers{web}' },
  reportingComponent: '',
  reportingInstance: '',
  reason: 'Started',
  message: '  Started container web \n',
  type: 'Normal',
  ...extra,
});
const cell = (e: CoreEvent, column: string): unknown =>
  eventCells(e, now)[eventColumns.findIndex((c) => c.name === column)];

const newStyle = base({
  eventTime: '2026-01-01T11:50:00.000000Z',
  reportingComponent: 'example.com/ctl',
  reportingInstance: 'ctl-1',
});
const withSeries = base({
  eventTime: '2026-01-01T11:00:00.000000Z',
  series: { count: 7, lastObservedTime: '2026-01-01T11:59:30.000000Z' },
  reportingComponent: 'example.com/ctl',
});
const legacy = base({
  firstTimestamp: '2026-01-01T10:00:00Z',
  lastTimestamp: '2026-01-01T11:58:00Z',
  count: 5,
  source: { component: 'kubelet', host: 'node-1' },
});

describe('event Table columns', () => {
  it('defines Kubernetes’ ten columns and priorities', () => {
    expect(eventColumns.map((c) => [c.name, c.priority])).toEqual([
      ['Last Seen', 0],
      ['Type', 0],
      ['Reason', 0],
      ['Object', 0],
      ['Subobject', 1],
      ['Source', 1],
      ['Message', 0],
      ['First Seen', 1],
      ['Count', 1],
      ['Name', 1],
    ]);
    expect(eventColumns.find((c) => c.name === 'Name')?.format).toBe('name');
    expect(eventColumns.every((c) => c.type === 'string' && c.description.length > 0)).toBe(true);
  });

  it('Last Seen: lastTimestamp, else first seen; series.lastObservedTime when there is a series', () => {
    expect(cell(legacy, 'Last Seen')).toBe('2m');
    expect(cell(newStyle, 'Last Seen')).toBe('10m');
    expect(cell(withSeries, 'Last Seen')).toBe('30s');
    expect(cell(base(), 'Last Seen')).toBe('<unknown>');
  });

  it('First Seen: firstTimestamp, else eventTime', () => {
    expect(cell(legacy, 'First Seen')).toBe('120m');
    expect(cell(newStyle, 'First Seen')).toBe('10m');
    expect(cell(withSeries, 'First Seen')).toBe('60m');
  });

  it('Count: series.count, else count, 0 shown as 1', () => {
    expect(cell(legacy, 'Count')).toBe(5);
    expect(cell(newStyle, 'Count')).toBe(1);
    expect(cell(withSeries, 'Count')).toBe(7);
  });

  it('Object: lower-cased kind / name, or just the kind', () => {
    expect(cell(legacy, 'Object')).toBe('pod/web-0');
    expect(cell(base({ involvedObject: { kind: 'Node' } }), 'Object')).toBe('node');
  });

  it('Subobject, Type, Reason, Name and the trimmed Message', () => {
    expect(cell(legacy, 'Subobject')).toBe('spec.containers{web}');
    expect(cell(legacy, 'Type')).toBe('Normal');
    expect(cell(legacy, 'Reason')).toBe('Started');
    expect(cell(legacy, 'Name')).toBe('ev-1');
    expect(cell(legacy, 'Message')).toBe('Started container web');
  });

  it('Source: component (or reportingController), then host (or reportingInstance)', () => {
    expect(cell(legacy, 'Source')).toBe('kubelet, node-1');
    expect(cell(newStyle, 'Source')).toBe('example.com/ctl, ctl-1');
    expect(cell(withSeries, 'Source')).toBe('example.com/ctl');
    expect(cell(base(), 'Source')).toBe('');
  });
});

describe('humanDuration', () => {
  const s = 1000;
  it.each([
    [-2 * s, '<invalid>'],
    [-500, '0s'],
    [0, '0s'],
    [119 * s, '119s'],
    [120 * s, '2m'],
    [150 * s, '2m30s'],
    [9 * 60 * s + 59 * s, '9m59s'],
    [10 * 60 * s, '10m'],
    [179 * 60 * s, '179m'],
    [3 * 3600 * s, '3h'],
    [3 * 3600 * s + 60 * s, '3h1m'],
    [8 * 3600 * s, '8h'],
    [47 * 3600 * s, '47h'],
    [48 * 3600 * s, '2d'],
    [49 * 3600 * s, '2d1h'],
    [8 * 86400 * s, '8d'],
    [729 * 86400 * s, '729d'],
    [730 * 86400 * s, '2y'],
    [731 * 86400 * s, '2y1d'],
    [8 * 365 * 86400 * s, '8y'],
  ])('%d ms -> %s', (ms, out) => expect(humanDuration(ms)).toBe(out));
});
