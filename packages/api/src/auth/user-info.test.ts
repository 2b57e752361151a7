import { describe, expect, it } from '@jest/globals';
import { anonymousUser, frozenUser, isFrozenUser } from './user-info.js';
import type { UserInfo } from './user-info.js';

describe('frozenUser', () => {
  it('copies the user deeply and freezes every part; the original stays as it was', () => {
    const user = { username: 'alice', uid: '42', groups: ['devs'], extra: { scopes: ['read'] } };
    const frozen = frozenUser(user);
    expect(frozen).toEqual(user);
    expect(frozen).not.toBe(user);
    expect(isFrozenUser(frozen)).toBe(true);
    expect(isFrozenUser(user)).toBe(false);
    for (const part of [frozen, frozen.groups, frozen.extra, frozen.extra!['scopes']])
      expect(Object.isFrozen(part)).toBe(true);
    expect(() => (frozen.groups as string[]).push('admins')).toThrow(TypeError);
    expect(() => (frozen.extra!['scopes'] as string[]).push('write')).toThrow(TypeError);
    user.groups.push('admins');
    user.extra.scopes.push('write');
    expect(frozen.groups).toEqual(['devs']);
    expect(frozen.extra).toEqual({ scopes: ['read'] });
  });

  it('gives a frozen user back as it is, and keeps a user without extra without one', () => {
    const frozen = frozenUser({ username: 'bob', groups: [] });
    expect(frozenUser(frozen)).toBe(frozen);
    expect('extra' in frozen).toBe(false);
  });

  it('does not take an object frozen elsewhere for one of its own', () => {
    const user: UserInfo = Object.freeze({ username: 'carol', groups: ['devs'] });
    expect(isFrozenUser(user)).toBe(false);
  });

  it('anonymousUser is one', () => {
    expect(isFrozenUser(anonymousUser)).toBe(true);
  });
});
