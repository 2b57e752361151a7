import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { FlagError } from '@kevents/cli';
import { apiserverFlags, apiserverOptions, parseApiserverFlags, usage } from './flags.js';

const docs = ['configuration.md', 'operations.md', 'architecture.md', 'api.md']
  .map((f) => readFileSync(new URL(`../../../../docs/${f}`, import.meta.url), 'utf8'))
  .join('\n');

describe('kevents-apiserver flags', () => {
  it('give typed defaults: numbers, booleans, lists and durations in milliseconds', () => {
    const o = parseApiserverFlags([]).options;
    expect(o).toEqual(apiserverOptions());
    expect(o).toMatchObject({
      bindAddress: '127.0.0.1',
      securePort: 6443,
      insecurePort: 0,
      anonymousAuth: true,
      authenticationSkipLookup: false,
      requestheaderUsernameHeaders: ['X-Remote-User'],
      requestheaderAllowedNames: [],
      authorizationAlwaysAllowPaths: ['/healthz', '/readyz', '/livez'],
      authorizationMode: ['AlwaysAllow'],
      authenticationTokenWebhookCacheTtlMs: 10_000,
      requestTimeoutMs: 60_000,
      shutdownDelayDurationMs: 0,
      minRequestTimeout: 1800,
      watchHistory: 100_000,
      logLevel: 'info',
      logFormat: 'json',
    });
  });

  it('record which flags were given, for the checks kube-apiserver makes on them', () => {
    const r = parseApiserverFlags(['--authorization-mode', 'AlwaysDeny', '--anonymous-auth=false', 'extra']);
    expect([...r.changed]).toEqual(['authorization-mode', 'anonymous-auth']);
    expect(r.options).toMatchObject({ authorizationMode: ['AlwaysDeny'], anonymousAuth: false });
    expect(r.args).toEqual(['extra']);
  });

  it('refuse a bad log format or level by the values they accept', () => {
    expect(() => parseApiserverFlags(['--log-format=yaml'])).toThrow(
      new FlagError('invalid argument "yaml" for "--log-format" flag: must be json or text'),
    );
    expect(() => parseApiserverFlags(['--log-level', 'loud'])).toThrow(FlagError);
  });

  it('are all in --help and in the docs', () => {
    const help = usage();
    for (const spec of Object.values(apiserverFlags)) {
      expect(help).toContain(`  --${spec.name}`);
      expect(docs).toContain(`--${spec.name}`);
    }
  });
});
