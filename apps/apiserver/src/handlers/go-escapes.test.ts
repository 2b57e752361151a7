import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MemoryStorage } from '@kevents/storage';
import { request, sampleEvent, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';

// kube writes every JSON answer with Go's encoding/json, whose strings escape <, > and & (EscapeHTML,
// on in json.Marshal and json.Encoder) and U+2028 and U+2029 (always).
const note = '<b>Tom & Jerry</b>\u2028\u2029';
const escapedNote = '"\\u003cb\\u003eTom \\u0026 Jerry\\u003c/b\\u003e\\u2028\\u2029"';
const raw = /[<>&\u2028\u2029]/;

let srv: TestServer;
const events = (n: string): string => `${srv.url}/apis/events.k8s.io/v1/namespaces/${n}/events`;
const core = (n: string): string => `${srv.url}/api/v1/namespaces/${n}/events`;

/** The answer's text holds Go's escapes and no raw character they replace, and reads back the note. */
const expectEscaped = (text: string, notes = 1): void => {
  expect(text).not.toMatch(raw);
  expect(text.split(escapedNote).length - 1).toBe(notes);
};

beforeAll(async () => {
  srv = await startTestServer({ storage: new MemoryStorage() });
});
afterAll(async () => srv.close());

describe("JSON answers carry Go's escapes", () => {
  it('in the answer to a create, a get (both views), an update and a patch', async () => {
    const created = await request(events('e1'), { method: 'POST', body: sampleEvent('a', 'e1', { note }) });
    expect(created.status).toBe(201);
    expectEscaped(created.text);
    expect(created.body.note).toBe(note);

    const got = await request(`${events('e1')}/a`);
    expectEscaped(got.text);
    expectEscaped((await request(`${core('e1')}/a`)).text.replace('"message":', '"note":'));

    const put = await request(`${events('e1')}/a`, {
      method: 'PUT',
      body: { ...got.body, metadata: { ...got.body.metadata, labels: { x: 'y' } } },
    });
    expect(put.status).toBe(200);
    expectEscaped(put.text);
    const patched = await request(`${events('e1')}/a`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: { metadata: { labels: { x: 'z' } } },
    });
    expect(patched.status).toBe(200);
    expectEscaped(patched.text);
    // Indented (`pretty`) answers too, as json.MarshalIndent writes them.
    expectEscaped((await request(`${events('e1')}/a?pretty=true`)).text);
  });

  it('in lists (one write, streamed, indented), Tables and PartialObjectMetadata', async () => {
    for (const n of ['a', 'b']) await request(events('e2'), { method: 'POST', body: sampleEvent(n, 'e2', { note }) });
    expectEscaped((await request(events('e2'))).text, 2);
    expectEscaped((await request(`${events('e2')}?pretty=true`)).text, 2);
    expectEscaped((await request(`${events('e2')}?labelSelector=!nope`)).text, 2);
    const table = await request(events('e2'), {
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    expect(table.body.kind).toBe('Table');
    expect(table.text).not.toMatch(raw);
    expect(table.text).toContain('\\u003cb\\u003eTom \\u0026 Jerry');
    const partial = await request(events('e2'), {
      headers: { accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' },
    });
    expect(partial.body.kind).toBe('PartialObjectMetadataList');
    expect(partial.text).not.toMatch(raw);
  });

  it('in a list streamed in chunks (500 items and more)', async () => {
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 500; i++)
      writes.push(request(events('e3'), { method: 'POST', body: sampleEvent(`n${i}`, 'e3', { note }) }));
    await Promise.all(writes);
    const list = await request(events('e3'));
    expect(list.body.items).toHaveLength(500);
    expectEscaped(list.text, 500);
  });

  it('in watch lines', async () => {
    await request(events('e4'), { method: 'POST', body: sampleEvent('w', 'e4', { note }) });
    const text = await (await fetch(`${events('e4')}?watch=true&timeoutSeconds=1`)).text();
    expect(JSON.parse(text).object.note).toBe(note);
    expectEscaped(text);
    const table = await (
      await fetch(`${events('e4')}?watch=true&timeoutSeconds=1`, {
        headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      })
    ).text();
    expect(table).not.toMatch(raw);
    expect(table).toContain('\\u003cb\\u003eTom \\u0026 Jerry');
  });

  it('in a Status that quotes the value', async () => {
    const r = await request(events('e5'), { method: 'POST', body: sampleEvent('s', 'e5', { type: '<Bad&>' }) });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('Event "s" is invalid: type: Invalid value: "": has invalid value: <Bad&>');
    expect(r.text).not.toMatch(raw);
    expect(r.text).toContain('has invalid value: \\u003cBad\\u0026\\u003e');
  });

  it('not in YAML, which holds the characters themselves', async () => {
    await request(events('e6'), { method: 'POST', body: sampleEvent('y', 'e6', { note: '<b>&</b>' }) });
    const r = await fetch(`${events('e6')}/y`, { headers: { accept: 'application/yaml' } });
    expect(await r.text()).toContain('note: <b>&</b>');
  });
});
