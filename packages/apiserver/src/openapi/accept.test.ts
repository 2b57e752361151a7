import { describe, expect, it } from '@jest/globals';
import { acceptsJSON } from './accept.js';

describe('acceptsJSON', () => {
  it.each([
    [undefined, true],
    ['', true],
    ['application/json', true],
    ['*/*', true],
    ['application/*', true],
    ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf, application/json', true],
    ['application/json;q=0.5', true],
    ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf', false],
    ['application/com.github.proto-openapi.spec.v3@v1.0+protobuf', false],
    ['application/json;q=0', false],
    ['text/html', false],
  ])('%s -> %s', (accept, expected) => {
    expect(acceptsJSON(accept)).toBe(expected);
  });
});
