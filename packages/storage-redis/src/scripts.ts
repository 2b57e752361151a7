/**
 * The Lua scripts of the Redis store. Every write is one script: it takes the next
 * resourceVersion from the counter, checks preconditions, writes the object, updates the
 * ordering indexes and appends the change to the Stream, atomically. Reads that must be
 * consistent (list chunks, the history bounds) are scripts too. Every key a script touches is
 * passed in KEYS and carries the instance's hash tag, so the scripts run on Redis Cluster.
 * An absent counter reads as 1 and the first write takes 2, as etcd starts at revision 1 (a
 * store written before counts on from where it is).
 *
 * Stored value of an object (field `<namespace>/<name>` of the resource's hash):
 * `<rv>\n<JSON of uid>\n<body>`, where body is the object's JSON without resourceVersion.
 * Stream entry id `<rv>-0`, fields: t (A|M|D), r (resource), n (namespace), k (key),
 * b (new body, for A and M), p (previous stored value, for M and D), m (Redis time in ms).
 */

const common = `
local function parse(v)
  local a = string.find(v, "\\n", 1, true)
  local b = string.find(v, "\\n", a + 1, true)
  return string.sub(v, 1, a - 1), string.sub(v, a + 1, b - 1), string.sub(v, b + 1)
end
-- The next resourceVersion from the counter KEYS[1]; an absent counter reads as 1, so the first is 2.
local function nextRv()
  local rv = redis.call('INCR', KEYS[1])
  if rv == 1 then rv = redis.call('INCR', KEYS[1]) end
  return rv
end
local function nowMs()
  local t = redis.call('TIME')
  return tostring(tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
end
`;

/**
 * KEYS: rv counter, objects hash, the resource's index, stream, and (only when ARGV[11] is '1')
 * the legacy namespace index `{p}:i:<resource>:<namespace>`. ARGV: op (c create, u update, d
 * delete, g guaranteed update), key, body, uid JSON, uid precondition JSON (or empty),
 * resourceVersion precondition (or empty), expected resourceVersion (or empty; for g: '0' means
 * "absent"), maxlen, resource, namespace, also maintain the legacy namespace index ('1'/'0').
 * A namespace's keys are the range `[<namespace>/`..`(<namespace>0` of the one index, so creates
 * and deletes touch one sorted set; the legacy index is kept only for a rolling upgrade from, or a
 * rollback to, a version that reads it (docs/operations.md).
 * Replies: {'ok', rv, prevBody?} | {'noop', rv} | {'exists'} | {'notfound'} | {'uid', uidJSON}
 * | {'pre', rv} | {'conflict'}.
 */
export const writeScript = `${common}
local op, key, body, uid = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local preUid, preRv, expect = ARGV[5], ARGV[6], ARGV[7]
local maxlen, resource, ns, legacy = ARGV[8], ARGV[9], ARGV[10], ARGV[11]
local cur = redis.call('HGET', KEYS[2], key)
local curRv, curUid, curBody
if cur then curRv, curUid, curBody = parse(cur) end
if op == 'g' then
  if expect == '0' then
    if cur then return {'conflict'} end
    op = 'c'
  else
    if not cur or curRv ~= expect then return {'conflict'} end
    op = 'u'
    expect = ''
  end
end
if op == 'c' then
  if cur then return {'exists'} end
else
  if not cur then return {'notfound'} end
  if preUid ~= '' and preUid ~= curUid then return {'uid', curUid} end
  if preRv ~= '' and preRv ~= curRv then return {'pre', curRv} end
  if expect ~= '' and expect ~= curRv then return {'conflict'} end
  if op == 'u' and body == curBody then return {'noop', curRv} end
end
if op == 'd' then
  -- The first write is one that frees memory: a full Redis (maxmemory, noeviction) refuses only a
  -- script's first write, so deletes still go through and make room.
  redis.call('HDEL', KEYS[2], key)
  redis.call('ZREM', KEYS[3], key)
  if legacy == '1' then redis.call('ZREM', KEYS[5], key) end
  local rv = nextRv()
  redis.call('XADD', KEYS[4], 'MAXLEN', '=', maxlen, rv .. '-0', 't', 'D', 'r', resource, 'n', ns, 'k', key, 'p', cur, 'm', nowMs())
  return {'ok', rv, curBody}
end
local rv = nextRv()
local id = rv .. '-0'
redis.call('HSET', KEYS[2], key, rv .. '\\n' .. uid .. '\\n' .. body)
if op == 'c' then
  redis.call('ZADD', KEYS[3], 0, key)
  if legacy == '1' then redis.call('ZADD', KEYS[5], 0, key) end
  redis.call('XADD', KEYS[4], 'MAXLEN', '=', maxlen, id, 't', 'A', 'r', resource, 'n', ns, 'k', key, 'b', body, 'm', nowMs())
else
  redis.call('XADD', KEYS[4], 'MAXLEN', '=', maxlen, id, 't', 'M', 'r', resource, 'n', ns, 'k', key, 'b', body, 'p', cur, 'm', nowMs())
end
return {'ok', rv}
`;

/**
 * Creates of one resource, as many as were made in one turn of the event loop (see
 * create-batch.ts): each as the write script's create, in order (a key made by an earlier item
 * of the batch exists for a later one), with one TIME for the batch. KEYS: rv counter, objects
 * hash, the resource's index, stream. ARGV: maxlen, resource, then for each create its key, body,
 * uid JSON and namespace. Reply: for each create its resourceVersion, or 0 when the key exists.
 */
export const createBatchScript = `${common}
local maxlen, resource = ARGV[1], ARGV[2]
local now = nowMs()
local out = {}
for i = 3, #ARGV, 4 do
  local key, body, uid, ns = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  if redis.call('HEXISTS', KEYS[2], key) == 1 then
    out[#out + 1] = 0
  else
    local rv = nextRv()
    redis.call('HSET', KEYS[2], key, rv .. '\\n' .. uid .. '\\n' .. body)
    redis.call('ZADD', KEYS[3], 0, key)
    redis.call('XADD', KEYS[4], 'MAXLEN', '=', maxlen, rv .. '-0', 't', 'A', 'r', resource, 'n', ns, 'k', key, 'b', body, 'm', now)
    out[#out + 1] = rv
  end
end
return out
`;

/**
 * One chunk of a list, consistent at one moment R. KEYS: rv counter, objects hash, index,
 * stream. ARGV: at (-1: R itself), start and end (ZRANGEBYLEX forms: a namespace is the range
 * `[<ns>/`..`(<ns>0` of the resource's index, as '0' follows '/'), count, resource, namespace
 * ('' for all), want a count ('1'/'0').
 * Reply: {R, at, status ('ok'|'expired'|'toolarge'), members, values, changes, count}: changes
 * is a flat list of (key, first change type after at, previous value or '', exists now '1'/'0'),
 * one per key of the prefix changed in (at, R]; count is ZLEXCOUNT from start to end (or -1).
 */
export const listChunkScript = `
local R = tonumber(redis.call('GET', KEYS[1]) or '1')
local at = tonumber(ARGV[1])
if at < 0 then at = R end
if at > R then return {R, at, 'toolarge', {}, {}, {}, -1} end
local changes = {}
if at < R then
  local es = redis.call('XRANGE', KEYS[4], (at + 1) .. '-0', '+')
  if #es == 0 or es[1][1] ~= (at + 1) .. '-0' then return {R, at, 'expired', {}, {}, {}, -1} end
  local seen = {}
  for _, e in ipairs(es) do
    local f = {}
    local kv = e[2]
    for i = 1, #kv, 2 do f[kv[i]] = kv[i + 1] end
    if f.r == ARGV[5] and (ARGV[6] == '' or f.n == ARGV[6]) and not seen[f.k] then
      seen[f.k] = true
      changes[#changes + 1] = f.k
      changes[#changes + 1] = f.t
      changes[#changes + 1] = f.p or ''
      changes[#changes + 1] = redis.call('HEXISTS', KEYS[2], f.k) == 1 and '1' or '0'
    end
  end
end
local members = redis.call('ZRANGEBYLEX', KEYS[3], ARGV[2], ARGV[3], 'LIMIT', 0, tonumber(ARGV[4]))
local values = {}
if #members > 0 then values = redis.call('HMGET', KEYS[2], unpack(members)) end
local count = -1
if ARGV[7] == '1' then count = redis.call('ZLEXCOUNT', KEYS[3], ARGV[2], ARGV[3]) end
return {R, at, 'ok', members, values, changes, count}
`;

/** KEYS: rv counter, stream. Reply: {current rv, id of the oldest retained change or ''}. */
export const boundsScript = `
local R = redis.call('GET', KEYS[1]) or '1'
local first = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)
if #first == 0 then return {R, ''} end
return {R, first[1][1]}
`;

/**
 * Compaction. KEYS: rv counter, stream. ARGV: mode ('rv' or 'age'), value (a resourceVersion,
 * or a maximum age in ms, measured by the Redis clock), how many entries an age scan may look at. Drops changes at or below
 * the resourceVersion (clamped to the current one), or older than the cut-off. Reply: removed count.
 */
export const compactScript = `
local R = tonumber(redis.call('GET', KEYS[1]) or '1')
if ARGV[1] == 'rv' then
  local rv = math.min(tonumber(ARGV[2]), R)
  return redis.call('XTRIM', KEYS[2], 'MINID', (rv + 1) .. '-0')
end
local t = redis.call('TIME')
local cutoff = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) - tonumber(ARGV[2])
local budget = tonumber(ARGV[3])
local start = '-'
local keep = nil
while budget > 0 do
  local es = redis.call('XRANGE', KEYS[2], start, '+', 'COUNT', 200)
  if #es == 0 then break end
  for _, e in ipairs(es) do
    local kv = e[2]
    local m = nil
    for i = 1, #kv, 2 do if kv[i] == 'm' then m = tonumber(kv[i + 1]) end end
    if m ~= nil and m >= cutoff then keep = e[1]; break end
    start = '(' .. e[1]
  end
  if keep then break end
  budget = budget - #es
end
if keep then return redis.call('XTRIM', KEYS[2], 'MINID', keep) end
if start == '-' then return 0 end
local last = tonumber(string.match(start, '^%((%d+)'))
return redis.call('XTRIM', KEYS[2], 'MINID', (last + 1) .. '-0')
`;
