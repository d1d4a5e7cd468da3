// The Lua scripts of the Redis store: each one is a single atomic step, so replicas racing on one
// task, one configuration scope, one rate window or one webhook retry never see half a change.

const FINAL = `local function final(state) return state == 'completed' or state == 'failed' or state == 'canceled' end
`;

/** Marks a finished task evictable and evicts beyond the cap, oldest finished first (C-44). */
const EVICT = `
local function finishAndEvict(ids, fin, seq, id, prefix, max)
  redis.call('ZADD', fin, redis.call('INCR', seq), id)
  local evicted = {}
  while redis.call('SCARD', ids) > max do
    local oldest = redis.call('ZPOPMIN', fin)
    if #oldest == 0 then break end
    redis.call('DEL', prefix .. oldest[1])
    redis.call('SREM', ids, oldest[1])
    table.insert(evicted, oldest[1])
  end
  return evicted
end
`;

/**
 * KEYS task, ids, finished, finishSeq; ARGV id, json, version, finished (0/1), taskKeyPrefix, maxTasks.
 * Writes unless the stored task is already final or newer (a write arriving late never goes back in
 * time); returns the evicted task ids.
 */
export const SAVE_TASK = `${FINAL}${EVICT}
local cur = redis.call('GET', KEYS[1])
if cur then
  local c = cjson.decode(cur)
  if final(c.status.state) or tonumber(c.version) >= tonumber(ARGV[3]) then return {} end
end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
if ARGV[4] == '1' then return finishAndEvict(KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[5], tonumber(ARGV[6])) end
return {}
`;

/** KEYS and ARGV as SAVE_TASK: stores the final task unless one is stored; returns the stored JSON. */
export const FINISH_IF_LIVE = `${FINAL}${EVICT}
local cur = redis.call('GET', KEYS[1])
if not cur then return false end
if final(cjson.decode(cur).status.state) then return cur end
redis.call('SET', KEYS[1], ARGV[2])
finishAndEvict(KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[5], tonumber(ARGV[6]))
return ARGV[2]
`;

/**
 * KEYS window; ARGV now, windowMs, limit, member. A sliding window (spec 8, C-04): admits and
 * counts, or returns the oldest admission time; refused requests are not counted.
 */
export const TAKE_RATE = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return false
`;

/**
 * KEYS waiting, running; ARGV op (push, release, remove), taskId, limit, channel, agentId. FIFO
 * admission to the agent's concurrentTasks slots (C-21) across replicas: each admitted task is
 * published so the replica running it starts it.
 */
export const ADMIT = `
if ARGV[1] == 'push' then redis.call('RPUSH', KEYS[1], ARGV[2])
elseif ARGV[1] == 'release' then redis.call('SREM', KEYS[2], ARGV[2])
elseif ARGV[1] == 'remove' then return redis.call('LREM', KEYS[1], 0, ARGV[2]) end
while redis.call('SCARD', KEYS[2]) < tonumber(ARGV[3]) do
  local id = redis.call('LPOP', KEYS[1])
  if not id then break end
  redis.call('SADD', KEYS[2], id)
  redis.call('PUBLISH', ARGV[4], ARGV[5] .. '\0' .. id)
end
return 0
`;

/**
 * KEYS configs; ARGV field, json, isTaskScope (0/1), maxTaskConfigs. Replaces the scope's config;
 * a new task scope beyond the bound is refused (C-42). Returns {1, replaced} or {0}.
 */
export const PUT_CONFIG = `
local old = redis.call('HGET', KEYS[1], ARGV[1])
if ARGV[3] == '1' and not old then
  local n = redis.call('HLEN', KEYS[1]) - redis.call('HEXISTS', KEYS[1], 'agent')
  if n >= tonumber(ARGV[4]) then return {0} end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return {1, old}
`;

/** KEYS configs; ARGV field. Removes and returns the config of a scope. */
export const TAKE_CONFIG = `
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old then redis.call('HDEL', KEYS[1], ARGV[1]) end
return old
`;

/**
 * KEYS due, entries; ARGV id, now, leaseMs, slackMs. Takes a retry for one attempt if nobody holds
 * it: its time moves a lease ahead, so no other replica takes it while it is sent.
 */
export const CLAIM_RETRY = `
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not s or tonumber(s) > tonumber(ARGV[2]) + tonumber(ARGV[4]) then return false end
redis.call('ZADD', KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[3]), ARGV[1])
return redis.call('HGET', KEYS[2], ARGV[1])
`;

/** KEYS due, entries; ARGV before, now, leaseMs, max. Takes retries due before `before`. */
export const CLAIM_ORPHANS = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[4]))
local out = {}
for _, id in ipairs(ids) do
  redis.call('ZADD', KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[3]), id)
  local entry = redis.call('HGET', KEYS[2], id)
  if entry then table.insert(out, entry) else redis.call('ZREM', KEYS[1], id) end
end
return out
`;
