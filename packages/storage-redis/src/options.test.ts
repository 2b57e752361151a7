import { describe, expect, it } from '@jest/globals';
import { parseRedisUrl, redact } from './options.js';

describe('parseRedisUrl', () => {
  it('parses the standalone, TLS, Sentinel and Cluster forms', () => {
    expect(parseRedisUrl('redis://127.0.0.1:6380/2?prefix=a')).toMatchObject({
      mode: 'standalone',
      tls: false,
      db: 2,
      hosts: [{ host: '127.0.0.1', port: 6380 }],
    });
    expect(parseRedisUrl('rediss://u:p%40ss@h')).toMatchObject({
      mode: 'standalone',
      tls: true,
      username: 'u',
      password: 'p@ss',
      hosts: [{ host: 'h', port: 6379 }],
    });
    expect(parseRedisUrl('redis+sentinel://a:1,b/mymaster/3')).toMatchObject({
      mode: 'sentinel',
      masterName: 'mymaster',
      db: 3,
      hosts: [
        { host: 'a', port: 1 },
        { host: 'b', port: 26379 },
      ],
    });
    expect(parseRedisUrl('redis+cluster://a:7000,b:7001')).toMatchObject({
      mode: 'cluster',
      hosts: [
        { host: 'a', port: 7000 },
        { host: 'b', port: 7001 },
      ],
    });
    expect(parseRedisUrl('redis://:secret@h:1/0').description).toBe('redis://h:1/0');
  });

  it('rejects bad URLs', () => {
    for (const u of ['http://h', 'redis://a,b', 'redis+sentinel://a', 'redis://h/x', 'redis+cluster://a/1'])
      expect(() => parseRedisUrl(u)).toThrow(/invalid Redis URL/);
    expect(redact('redis://u:secret@h')).toBe('redis://u:***@h');
  });
});
