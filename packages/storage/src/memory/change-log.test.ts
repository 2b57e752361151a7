import { describe, expect, it } from '@jest/globals';
import { ChangeLog } from './change-log.js';
import { packObject } from './packed-object.js';
import { forgetBefore, type KeyEntry, ResourceTable } from './resource-table.js';

/** A log and a table written as MemoryStorage writes them: a revision, then the change. */
function store(historyLimit = Infinity) {
  const log = new ChangeLog(0);
  const table = new ResourceTable();
  const write = (name: string, note: string | undefined): KeyEntry => {
    const key = `ns/${name}`;
    const e = table.entry('events', 'ns', key);
    const body =
      note === undefined
        ? undefined
        : packObject({ apiVersion: 'v1', kind: 'Event', metadata: { name }, note } as never);
    table.push(e, { rv: log.rv + 1, body });
    log.append(e, 0);
    while (log.size > historyLimit) {
      const old = log.shift()!;
      if (forgetBefore(old, log.compacted)) table.drop(old);
    }
    return e;
  };
  return { log, table, write };
}

const view = (log: ChangeLog, rv: number) => {
  const c = log.at(rv);
  if (c === undefined) return undefined;
  const note = (body: string | undefined) =>
    body === undefined ? undefined : (JSON.parse(body) as { note: string }).note;
  return [c.type, c.resource, c.namespace, note(c.body), note(c.prev)];
};

describe('ChangeLog', () => {
  it("gives each change from its key's revisions: ADDED, MODIFIED with the state replaced, DELETED with the last state", () => {
    const { log, write } = store();
    write('a', 'one'); // 2
    write('b', 'other'); // 3
    write('a', 'two'); // 4
    write('a', undefined); // 5
    write('a', 'again'); // 6
    write('a', 'three'); // 7
    expect([2, 3, 4, 5, 6, 7].map((rv) => view(log, rv))).toEqual([
      ['ADDED', 'events', 'ns', 'one', undefined],
      ['ADDED', 'events', 'ns', 'other', undefined],
      ['MODIFIED', 'events', 'ns', 'two', 'one'],
      ['DELETED', 'events', 'ns', 'two', 'two'],
      ['ADDED', 'events', 'ns', 'again', undefined],
      ['MODIFIED', 'events', 'ns', 'three', 'again'],
    ]);
    expect(log.at(4)).toBe(log.at(4));
    expect(log.at(4)!.rv).toBe(4);
    expect(log.at(1)).toBeUndefined();
    expect(log.at(8)).toBeUndefined();
  });

  it('gives the retained changes alike once older ones are compacted, and forgets dead keys', () => {
    const full = store();
    const kept = store(2);
    const writes: [string, string | undefined][] = [
      ['a', 'one'],
      ['a', 'two'],
      ['a', undefined],
      ['b', 'x'],
      ['a', 'new'],
      ['a', 'newer'],
      ['a', undefined],
      ['c', 'y'],
      ['a', 'last'],
    ];
    for (const [name, note] of writes) {
      full.write(name, note);
      kept.write(name, note);
      const rv = kept.log.rv;
      expect(kept.log.oldestRv()).toBe(Math.max(2, rv - 1));
      for (let r = rv - 1; r <= rv; r++) if (r > 1) expect(view(kept.log, r)).toEqual(view(full.log, r));
      expect(kept.log.at(rv - 2)).toBeUndefined();
    }
    expect(kept.table.index.size).toBe(3);
    expect(kept.log.entryAt(kept.log.rv)!.key).toBe('ns/a');
  });

  it('keeps the time of each change only when timed', () => {
    const timed = new ChangeLog(0, true);
    const table = new ResourceTable();
    const e = table.entry('events', '', 'a');
    table.push(e, { rv: 2, body: packObject({ metadata: { name: 'a' } } as never) });
    timed.append(e, 1234);
    expect(timed.oldestTime()).toBe(1234);
    expect(timed.at(2)!.time).toBe(1234);
    expect(timed.at(2)!.namespace).toBe('');
    timed.shift();
    expect(timed.oldestTime()).toBeUndefined();
  });
});
