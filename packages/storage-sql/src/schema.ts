import { compactBodyKeysSql } from './compact-body.js';

/**
 * The SQL schema, versioned. `kevents_schema` holds the version; on start the store runs, in one
 * transaction, every migration after it (forward only; an older kevents refuses a newer schema).
 *
 * - `kevents_meta` (one row): `rv`, the newest resourceVersion (every write takes the next one,
 *   under this row's lock on PostgreSQL, so resourceVersion order is commit order), and
 *   `compacted` (every change at or below it is gone).
 * - `kevents_objects`: the current objects, keyed by resource and `<namespace>/<name>` (byte
 *   order: the list order), with their resourceVersion, uid and JSON without resourceVersion.
 * - `kevents_counts`: how many objects each namespace of each resource holds (for
 *   `remainingItemCount` without counting rows).
 * - `kevents_changes`: the change log, one row per resourceVersion (`A`dded, `M`odified,
 *   `D`eleted) with the new body (for D the last one), the previous resourceVersion and, for M,
 *   the previous body; `ts` is the write time in ms (age compaction). Watches read it; lists at
 *   an older resourceVersion undo from it the changes made since.
 *
 * Version 2 adds to `kevents_objects` the columns of {@link indexedFields} (filled from the
 * stored bodies) and an index on each. On SQLite the table is rebuilt: `uid`, `f_uid` and
 * `f_name` are virtual columns read from the body (only the indexes store the two fields, and
 * the object's uid is read when a write needs it), and the `namespace` column, which nothing
 * read, is gone: 80 bytes less per object. On PostgreSQL: `kevents_write` that fills them and
 * answers an update with the body it replaced and updates each namespace's count once per
 * batch, lz4 compression for bodies large enough to be
 * compressed (over ~2 kB; where the server has lz4, else pglz), and autovacuum of the change log
 * every 10,000 dead or inserted rows (a fast load otherwise leaves most of it dead rows).
 *
 * Version 3 (SQLite only; nothing on PostgreSQL) rebuilds `kevents_objects` as a rowid table
 * with a unique index `kevents_objects_key` on `(resource, key)`: a new object's row is appended
 * at the end of the table and only the index's small entry goes in key order, where the table
 * held the whole row in key order (a create into a random place of a B-tree of ~1 kB rows split
 * a page every few inserts: 62 against 42 kB written to the WAL and the file per create).
 *
 * Version 4 (PostgreSQL only; nothing on SQLite) stores the bodies it writes, in the objects
 * table and the change log, in the compact form of compact-body.ts (Events' member names as one
 * or two control characters), adds `kevents_body_json(text)`, which expands it, and makes
 * `kevents_write`'s no-op check of an update compare with a row written before (still JSON)
 * through it. Rows are not rewritten: each form reads as the same JSON.
 *
 * Version 5 (PostgreSQL only; nothing on SQLite) gives `kevents_write` a set-based path for a
 * batch of creates only (the common batch): one statement reads which keys exist, numbers the
 * others' resourceVersions in batch order and inserts them into the objects table and the change
 * log, instead of three statements per create. A batch with any other write runs the loop as
 * before. The answers, resourceVersions and rows are the same either way.
 */
export const schemaVersion = 5;

/**
 * Field labels the store keeps in columns of their own, each indexed with the key (so that a
 * namespace's matches read in list order): the string at the label's dotted path in the stored
 * object, or NULL. These are the labels `kubectl describe` and `kubectl events --for` select on
 * (`involvedObject.uid`, `involvedObject.name`; `regarding.*` in events.k8s.io/v1). A list whose
 * predicate carries one of them as an `=` requirement (Predicate `fields`) reads only the rows
 * with that value. The index of column `f_X` is `kevents_objects_X`. In the order the store
 * prefers them (the most selective first).
 */
export const indexedFields: readonly { readonly label: string; readonly column: string }[] = [
  { label: 'involvedObject.uid', column: 'f_uid' },
  { label: 'involvedObject.name', column: 'f_name' },
];

/**
 * Run on every start, after the migrations and in their transaction, on SQLite and PostgreSQL: a
 * database never written is at resourceVersion 1, as etcd starts at revision 1, so its first
 * write is 2 and a list of it answers "1", never "0" (which a watch reads as "any"). The first
 * migration started the counter at 0; a database written since counts on from where it is. Not
 * a migration: it needs no new schema version, so an older kevents still opens the database.
 */
export const firstRevisionStatement = 'UPDATE kevents_meta SET rv = 1, compacted = 1 WHERE id = 1 AND rv = 0';

/** SQLite migrations; index i takes the schema from version i to i + 1. */
export const sqliteMigrations: readonly string[] = [
  `
CREATE TABLE kevents_meta (id INTEGER PRIMARY KEY CHECK (id = 1), rv INTEGER NOT NULL, compacted INTEGER NOT NULL);
INSERT INTO kevents_meta (id, rv, compacted) VALUES (1, 0, 0);
CREATE TABLE kevents_objects (
  resource TEXT NOT NULL,
  key TEXT NOT NULL,
  namespace TEXT NOT NULL,
  rv INTEGER NOT NULL,
  uid TEXT NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (resource, key)
) WITHOUT ROWID;
CREATE TABLE kevents_counts (
  resource TEXT NOT NULL,
  namespace TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (resource, namespace)
) WITHOUT ROWID;
CREATE TABLE kevents_changes (
  rv INTEGER PRIMARY KEY,
  type TEXT NOT NULL,
  resource TEXT NOT NULL,
  key TEXT NOT NULL,
  namespace TEXT NOT NULL,
  body TEXT NOT NULL,
  prev_rv INTEGER NOT NULL,
  prev_body TEXT,
  ts INTEGER NOT NULL
);
`,
  `
CREATE TABLE kevents_objects_2 (
  resource TEXT NOT NULL,
  key TEXT NOT NULL,
  rv INTEGER NOT NULL,
  body TEXT NOT NULL,
  uid TEXT GENERATED ALWAYS AS (coalesce(json_extract(body, '$.metadata.uid'), '')) VIRTUAL,
  f_uid TEXT GENERATED ALWAYS AS (CASE json_type(body, '$.involvedObject.uid') WHEN 'text' THEN json_extract(body, '$.involvedObject.uid') END) VIRTUAL,
  f_name TEXT GENERATED ALWAYS AS (CASE json_type(body, '$.involvedObject.name') WHEN 'text' THEN json_extract(body, '$.involvedObject.name') END) VIRTUAL,
  PRIMARY KEY (resource, key)
) WITHOUT ROWID;
INSERT INTO kevents_objects_2 (resource, key, rv, body) SELECT resource, key, rv, body FROM kevents_objects ORDER BY resource, key;
DROP TABLE kevents_objects;
ALTER TABLE kevents_objects_2 RENAME TO kevents_objects;
CREATE INDEX kevents_objects_uid ON kevents_objects (resource, f_uid, key) WHERE f_uid IS NOT NULL;
CREATE INDEX kevents_objects_name ON kevents_objects (resource, f_name, key) WHERE f_name IS NOT NULL;
`,
  `
CREATE TABLE kevents_objects_3 (
  resource TEXT NOT NULL,
  key TEXT NOT NULL,
  rv INTEGER NOT NULL,
  body TEXT NOT NULL,
  uid TEXT GENERATED ALWAYS AS (coalesce(json_extract(body, '$.metadata.uid'), '')) VIRTUAL,
  f_uid TEXT GENERATED ALWAYS AS (CASE json_type(body, '$.involvedObject.uid') WHEN 'text' THEN json_extract(body, '$.involvedObject.uid') END) VIRTUAL,
  f_name TEXT GENERATED ALWAYS AS (CASE json_type(body, '$.involvedObject.name') WHEN 'text' THEN json_extract(body, '$.involvedObject.name') END) VIRTUAL
);
INSERT INTO kevents_objects_3 (resource, key, rv, body) SELECT resource, key, rv, body FROM kevents_objects ORDER BY resource, key;
DROP TABLE kevents_objects;
ALTER TABLE kevents_objects_3 RENAME TO kevents_objects;
CREATE UNIQUE INDEX kevents_objects_key ON kevents_objects (resource, key);
CREATE INDEX kevents_objects_uid ON kevents_objects (resource, f_uid, key) WHERE f_uid IS NOT NULL;
CREATE INDEX kevents_objects_name ON kevents_objects (resource, f_name, key) WHERE f_name IS NOT NULL;
`,
  // Version 4 changes only PostgreSQL's bodies; SQLite's stay JSON (its field columns read them).
  'SELECT 1',
  // Version 5 changes only PostgreSQL's kevents_write.
  'SELECT 1',
];

/**
 * `kevents_write` as schema 2 defines it (schema 4 changes only its no-op check, {@link noopCheck4}).
 */
const writeFunction2 = `CREATE OR REPLACE FUNCTION kevents_write(ops jsonb, history bigint) RETURNS jsonb LANGUAGE plpgsql AS $fn$
DECLARE
  cur_rv bigint;
  old_compacted bigint;
  new_compacted bigint;
  op jsonb;
  kind text;
  expect text;
  r record;
  found_row boolean;
  results jsonb := '[]'::jsonb;
  now_ms bigint := (extract(epoch from clock_timestamp()) * 1000)::bigint;
  wrote boolean := false;
  cnt_r text[] := '{}';
  cnt_n text[] := '{}';
  cnt_d bigint[] := '{}';
BEGIN
  SELECT m.rv, m.compacted INTO cur_rv, old_compacted FROM kevents_meta m WHERE m.id = 1 FOR UPDATE;
  FOR op IN SELECT * FROM jsonb_array_elements(ops) LOOP
    kind := op->>'op';
    expect := op->>'e';
    SELECT o.rv, o.uid, o.body INTO r FROM kevents_objects o WHERE o.resource = op->>'r' AND o.key = op->>'k';
    found_row := FOUND;
    IF kind = 'g' THEN
      IF expect = '0' THEN
        IF found_row THEN results := results || jsonb_build_array(jsonb_build_array('conflict', 0)); CONTINUE; END IF;
        kind := 'c';
      ELSE
        IF NOT found_row OR r.rv::text <> expect THEN
          results := results || jsonb_build_array(jsonb_build_array('conflict', 0)); CONTINUE;
        END IF;
        kind := 'u';
        expect := '';
      END IF;
    END IF;
    IF kind = 'c' THEN
      IF found_row THEN results := results || jsonb_build_array(jsonb_build_array('exists', 0)); CONTINUE; END IF;
    ELSE
      IF NOT found_row THEN results := results || jsonb_build_array(jsonb_build_array('notfound', 0)); CONTINUE; END IF;
      IF op ? 'pu' AND op->>'pu' <> r.uid THEN
        results := results || jsonb_build_array(jsonb_build_array('uid', 0, r.uid)); CONTINUE;
      END IF;
      IF op ? 'pr' AND op->>'pr' <> r.rv::text THEN
        results := results || jsonb_build_array(jsonb_build_array('pre', 0, r.rv::text)); CONTINUE;
      END IF;
      IF expect <> '' AND expect <> r.rv::text THEN
        results := results || jsonb_build_array(jsonb_build_array('conflict', 0)); CONTINUE;
      END IF;
      IF kind = 'u' AND op->>'b' = r.body THEN
        results := results || jsonb_build_array(jsonb_build_array('noop', r.rv)); CONTINUE;
      END IF;
    END IF;
    cur_rv := cur_rv + 1;
    wrote := true;
    IF kind = 'c' THEN
      INSERT INTO kevents_objects (resource, key, namespace, rv, uid, body, f_uid, f_name)
        VALUES (op->>'r', op->>'k', op->>'n', cur_rv, op->>'u', op->>'b', op->'f'->>0, op->'f'->>1);
      cnt_r := cnt_r || (op->>'r');
      cnt_n := cnt_n || (op->>'n');
      cnt_d := cnt_d || 1::bigint;
      INSERT INTO kevents_changes (rv, type, resource, key, namespace, body, prev_rv, prev_body, ts)
        VALUES (cur_rv, 'A', op->>'r', op->>'k', op->>'n', op->>'b', 0, NULL, now_ms);
      results := results || jsonb_build_array(jsonb_build_array('ok', cur_rv));
    ELSIF kind = 'u' THEN
      UPDATE kevents_objects SET rv = cur_rv, uid = op->>'u', body = op->>'b', f_uid = op->'f'->>0, f_name = op->'f'->>1
        WHERE resource = op->>'r' AND key = op->>'k';
      INSERT INTO kevents_changes (rv, type, resource, key, namespace, body, prev_rv, prev_body, ts)
        VALUES (cur_rv, 'M', op->>'r', op->>'k', op->>'n', op->>'b', r.rv, r.body, now_ms);
      results := results || jsonb_build_array(jsonb_build_array('ok', cur_rv, r.body));
    ELSE
      DELETE FROM kevents_objects WHERE resource = op->>'r' AND key = op->>'k';
      cnt_r := cnt_r || (op->>'r');
      cnt_n := cnt_n || (op->>'n');
      cnt_d := cnt_d || (-1)::bigint;
      INSERT INTO kevents_changes (rv, type, resource, key, namespace, body, prev_rv, prev_body, ts)
        VALUES (cur_rv, 'D', op->>'r', op->>'k', op->>'n', r.body, r.rv, NULL, now_ms);
      results := results || jsonb_build_array(jsonb_build_array('ok', cur_rv, r.body));
    END IF;
  END LOOP;
  IF wrote THEN
    -- The namespaces' counts once per batch (one new version of each count row, not one per write).
    INSERT INTO kevents_counts AS c (resource, namespace, n)
      SELECT t.r, t.n, sum(t.d) FROM unnest(cnt_r, cnt_n, cnt_d) AS t(r, n, d) GROUP BY t.r, t.n
      ON CONFLICT (resource, namespace) DO UPDATE SET n = c.n + EXCLUDED.n;
    new_compacted := greatest(old_compacted, cur_rv - history);
    IF new_compacted > old_compacted THEN
      DELETE FROM kevents_changes WHERE rv > old_compacted AND rv <= new_compacted;
    END IF;
    UPDATE kevents_meta SET rv = cur_rv, compacted = new_compacted WHERE id = 1;
    PERFORM pg_notify('kevents_changes', cur_rv::text);
  END IF;
  RETURN results;
END
$fn$;`;

/** Schema 2's no-op check: the update's body is the stored one. */
const noopCheck2 = "IF kind = 'u' AND op->>'b' = r.body THEN";

/**
 * Schema 4's: also when the stored body, written before schema 4, is the JSON the compact update
 * body expands to.
 */
const noopCheck4 =
  "IF kind = 'u' AND (op->>'b' = r.body OR (r.body !~ '[\\x01-\\x1f]' AND kevents_body_json(op->>'b') = r.body)) THEN";

if (!writeFunction2.includes(noopCheck2)) throw new Error('kevents: schema 2 has no no-op check to replace');
const writeFunction4 = writeFunction2.replace(noopCheck2, noopCheck4);

/**
 * Schema 5's set-based path for a batch of creates only: each op that is the first of its key in
 * the batch and whose key is not stored takes the next resourceVersion in batch order; the others
 * answer `exists`. The existence check is a scalar subquery (an index lookup per op, never a join
 * the planner could turn into a scan of the table). The counts go through the loop's arrays.
 */
const createsOnly5 = `  IF NOT jsonb_path_exists(ops, '$[*] ? (@.op != "c")') THEN
    WITH o AS (
      SELECT t.ord, t.e->>'r' AS r, t.e->>'k' AS k, t.e->>'n' AS n, t.e->>'u' AS u, t.e->>'b' AS b,
        t.e->'f'->>0 AS fu, t.e->'f'->>1 AS fn,
        row_number() OVER (PARTITION BY t.e->>'r', t.e->>'k' ORDER BY t.ord) AS nth
      FROM jsonb_array_elements(ops) WITH ORDINALITY AS t(e, ord)
    ), fresh AS (
      SELECT o.*, cur_rv + row_number() OVER (ORDER BY o.ord) AS rv FROM o
      WHERE o.nth = 1 AND (SELECT 1 FROM kevents_objects x WHERE x.resource = o.r AND x.key = o.k) IS NULL
    ), ins AS (
      INSERT INTO kevents_objects (resource, key, namespace, rv, uid, body, f_uid, f_name)
        SELECT f.r, f.k, f.n, f.rv, f.u, f.b, f.fu, f.fn FROM fresh f
    ), logged AS (
      INSERT INTO kevents_changes (rv, type, resource, key, namespace, body, prev_rv, prev_body, ts)
        SELECT f.rv, 'A', f.r, f.k, f.n, f.b, 0, NULL, now_ms FROM fresh f
    )
    SELECT coalesce(jsonb_agg(CASE WHEN f.rv IS NULL THEN '["exists", 0]'::jsonb ELSE jsonb_build_array('ok', f.rv) END
        ORDER BY o.ord), '[]'::jsonb),
      count(f.rv),
      coalesce(array_agg(f.r ORDER BY f.rv) FILTER (WHERE f.rv IS NOT NULL), '{}'),
      coalesce(array_agg(f.n ORDER BY f.rv) FILTER (WHERE f.rv IS NOT NULL), '{}')
      INTO results, created, cnt_r, cnt_n
      FROM o LEFT JOIN fresh f ON f.ord = o.ord;
    cnt_d := array_fill(1::bigint, ARRAY[created]::integer[]);
    cur_rv := cur_rv + created;
    wrote := created > 0;
  ELSE
`;

/** `kevents_write` with {@link createsOnly5} before the loop, which runs for any other batch. */
function withCreatesOnly(fn: string): string {
  const anchors = [
    "  cnt_d bigint[] := '{}';\nBEGIN\n",
    '  FOR op IN SELECT * FROM jsonb_array_elements(ops) LOOP\n',
    '  END LOOP;\n  IF wrote THEN\n',
  ];
  for (const a of anchors)
    if (fn.split(a).length !== 2)
      throw new Error(`kevents: schema 4's kevents_write has no single ${JSON.stringify(a)}`);
  return fn
    .replace(anchors[0]!, "  cnt_d bigint[] := '{}';\n  created bigint;\nBEGIN\n")
    .replace(anchors[1]!, `${createsOnly5}${anchors[1]!}`)
    .replace(anchors[2]!, '  END LOOP;\n  END IF;\n  IF wrote THEN\n');
}
const writeFunction5 = withCreatesOnly(writeFunction4);

/** `kevents_body_json(body text)`: the JSON text of a body in the compact form (compact-body.ts). */
const bodyJsonFunction = `CREATE FUNCTION kevents_body_json(body text) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
DECLARE
  keys text[] := ${compactBodyKeysSql()};
  s text := body;
BEGIN
  IF s !~ '[\\x01-\\x1f]' THEN RETURN s; END IF;
  FOR i IN 1..array_length(keys, 1) LOOP
    s := replace(s, chr(31) || chr(i), '"f:' || keys[i] || '":');
  END LOOP;
  FOR i IN 1..array_length(keys, 1) LOOP
    s := replace(s, chr(i), '"' || keys[i] || '":');
  END LOOP;
  RETURN s;
END
$fn$;`;

/**
 * PostgreSQL migrations. Keys use the "C" collation (byte order). `kevents_write(ops jsonb,
 * history bigint)` applies a batch of writes in the caller's transaction: it locks the meta row
 * (so writers of every replica take resourceVersions one after another and commit in that
 * order), decides each write as the Redis write script does, logs the changes, trims the log to
 * `history` changes and sends `NOTIFY kevents_changes` (delivered at commit) so that the other
 * replicas' watches read at once.
 */
export const postgresMigrations: readonly string[] = [
  `
CREATE TABLE kevents_meta (id integer PRIMARY KEY CHECK (id = 1), rv bigint NOT NULL, compacted bigint NOT NULL);
INSERT INTO kevents_meta (id, rv, compacted) VALUES (1, 0, 0);
CREATE TABLE kevents_objects (
  resource text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  namespace text COLLATE "C" NOT NULL,
  rv bigint NOT NULL,
  uid text NOT NULL,
  body text NOT NULL,
  PRIMARY KEY (resource, key)
);
CREATE TABLE kevents_counts (
  resource text COLLATE "C" NOT NULL,
  namespace text COLLATE "C" NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (resource, namespace)
);
CREATE TABLE kevents_changes (
  rv bigint PRIMARY KEY,
  type "char" NOT NULL,
  resource text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  namespace text COLLATE "C" NOT NULL,
  body text NOT NULL,
  prev_rv bigint NOT NULL,
  prev_body text,
  ts bigint NOT NULL
);
CREATE FUNCTION kevents_write(ops jsonb, history bigint) RETURNS jsonb LANGUAGE plpgsql AS $fn$
DECLARE
  cur_rv bigint;
  old_compacted bigint;
  new_compacted bigint;
  op jsonb;
  kind text;
  expect text;
  r record;
  found_row boolean;
  results jsonb := '[]'::jsonb;
  now_ms bigint := (extract(epoch from clock_timestamp()) * 1000)::bigint;
  wrote boolean := false;
BEGIN
  SELECT m.rv, m.compacted INTO cur_rv, old_compacted FROM kevents_meta m WHERE m.id = 1 FOR UPDATE;
  FOR op IN SELECT * FROM jsonb_array_elements(ops) LOOP
    kind := op->>'op';
    expect := op->>'e';
    SELECT o.rv, o.uid, o.body INTO r FROM kevents_objects o WHERE o.resource = op->>'r' AND o.key = op->>'k';
    found_row := FOUND;
    IF kind = 'g' THEN
      IF expect = '0' THEN
        IF found_row THEN results := results || jsonb_build_array(jsonb_build_array('conflict', 0)); CONTINUE; END IF;
        kind := 'c';
      ELSE
        IF NOT found_row OR r.rv::text <> expect THEN
          results := results || jsonb_build_array(jsonb_build_array('conflict', 0)); CONTINUE;
        END IF;
        kind := 'u';
        expect := '';
      END IF;
    END IF;
    IF kind = 'c' THEN
      IF found_row THEN results := results || jsonb_build_array(jsonb_build_array('exists', 0)); CONTINUE; END IF;
    ELSE
      IF NOT found_row THEN results := results || jsonb_build_array(jsonb_build_array('notfound', 0)); CONTINUE; END IF;
      IF op ? 'pu' AND op->>'pu' <> r.uid THEN
        results := results || jsonb_build_array(jsonb_build_array('uid', 0, r.uid)); CONTINUE;
      END IF;
      IF op ? 'pr' AND op->>'pr' <> r.rv::text THEN
        results := results || jsonb_build_array(jsonb_build_array('pre', 0, r.rv::text)); CONTINUE;
      END IF;
      IF expect <> '' AND expect <> r.rv::text THEN
        results := results || jsonb_build_array(jsonb_build_array('conflict', 0)); CONTINUE;
      END IF;
      IF kind = 'u' AND op->>'b' = r.body THEN
        results := results || jsonb_build_array(jsonb_build_array('noop', r.rv)); CONTINUE;
      END IF;
    END IF;
    cur_rv := cur_rv + 1;
    wrote := true;
    IF kind = 'c' THEN
      INSERT INTO kevents_objects (resource, key, namespace, rv, uid, body)
        VALUES (op->>'r', op->>'k', op->>'n', cur_rv, op->>'u', op->>'b');
      INSERT INTO kevents_counts AS c (resource, namespace, n) VALUES (op->>'r', op->>'n', 1)
        ON CONFLICT (resource, namespace) DO UPDATE SET n = c.n + 1;
      INSERT INTO kevents_changes (rv, type, resource, key, namespace, body, prev_rv, prev_body, ts)
        VALUES (cur_rv, 'A', op->>'r', op->>'k', op->>'n', op->>'b', 0, NULL, now_ms);
      results := results || jsonb_build_array(jsonb_build_array('ok', cur_rv));
    ELSIF kind = 'u' THEN
      UPDATE kevents_objects SET rv = cur_rv, uid = op->>'u', body = op->>'b'
        WHERE resource = op->>'r' AND key = op->>'k';
      INSERT INTO kevents_changes (rv, type, resource, key, namespace, body, prev_rv, prev_body, ts)
        VALUES (cur_rv, 'M', op->>'r', op->>'k', op->>'n', op->>'b', r.rv, r.body, now_ms);
      results := results || jsonb_build_array(jsonb_build_array('ok', cur_rv));
    ELSE
      DELETE FROM kevents_objects WHERE resource = op->>'r' AND key = op->>'k';
      UPDATE kevents_counts SET n = n - 1 WHERE resource = op->>'r' AND namespace = op->>'n';
      INSERT INTO kevents_changes (rv, type, resource, key, namespace, body, prev_rv, prev_body, ts)
        VALUES (cur_rv, 'D', op->>'r', op->>'k', op->>'n', r.body, r.rv, NULL, now_ms);
      results := results || jsonb_build_array(jsonb_build_array('ok', cur_rv, r.body));
    END IF;
  END LOOP;
  IF wrote THEN
    new_compacted := greatest(old_compacted, cur_rv - history);
    IF new_compacted > old_compacted THEN
      DELETE FROM kevents_changes WHERE rv > old_compacted AND rv <= new_compacted;
    END IF;
    UPDATE kevents_meta SET rv = cur_rv, compacted = new_compacted WHERE id = 1;
    PERFORM pg_notify('kevents_changes', cur_rv::text);
  END IF;
  RETURN results;
END
$fn$;
`,
  `
ALTER TABLE kevents_objects ADD COLUMN f_uid text COLLATE "C", ADD COLUMN f_name text COLLATE "C";
-- jsonb holds no NUL: a body with a NUL escape (backslash u0000, in any string) is read with each such escape
-- (one not itself escaped) as U+FFFD, a pass at a time (adjacent ones are left to the next pass).
-- The list's predicate still checks every row the index gives, so the column only narrows the read.
CREATE OR REPLACE FUNCTION pg_temp.kevents_v2_jsonb(body text) RETURNS jsonb LANGUAGE plpgsql AS $f$
BEGIN
  LOOP
    BEGIN
      RETURN body::jsonb;
    EXCEPTION WHEN untranslatable_character THEN
      body := regexp_replace(body, '((^|[^\\\\])(\\\\\\\\)*)\\\\u0000', '\\1\\\\ufffd', 'g');
    END;
  END LOOP;
END
$f$;
UPDATE kevents_objects SET (f_uid, f_name) = (
  SELECT CASE jsonb_typeof(j #> '{involvedObject,uid}') WHEN 'string' THEN j #>> '{involvedObject,uid}' END,
         CASE jsonb_typeof(j #> '{involvedObject,name}') WHEN 'string' THEN j #>> '{involvedObject,name}' END
  FROM (SELECT pg_temp.kevents_v2_jsonb(body) AS j) b);
CREATE INDEX kevents_objects_uid ON kevents_objects (resource, f_uid, key) WHERE f_uid IS NOT NULL;
CREATE INDEX kevents_objects_name ON kevents_objects (resource, f_name, key) WHERE f_name IS NOT NULL;
DO $do$ BEGIN
  ALTER TABLE kevents_objects ALTER COLUMN body SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
  NULL; -- a server built without lz4 keeps pglz
END $do$;
ALTER TABLE kevents_changes SET (
  autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000,
  autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 10000
);
${writeFunction2}
`,
  // Version 3 changes only SQLite's objects table.
  'SELECT 1',
  `
${bodyJsonFunction}
${writeFunction4}
`,
  writeFunction5,
];
