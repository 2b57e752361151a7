import { describe, expect, it } from '@jest/globals';
import { acceptsJSON, negotiateOpenAPI } from './accept.js';

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

describe('negotiateOpenAPI (kube-openapi handler order: json, deprecated protobuf, protobuf)', () => {
  const produces = [
    'application/json',
    'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
    'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
  ];
  it.each([
    [undefined, 0],
    ['*/*', 0],
    ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf', 1],
    ['application/com.github.proto-openapi.spec.v2.v1.0+protobuf', 2],
    ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf, application/json', 1],
    ['application/json;q=0.5, application/com.github.proto-openapi.spec.v2.v1.0+protobuf', 2],
    ['*/*;q=0.1, application/com.github.proto-openapi.spec.v2@v1.0+protobuf', 1],
    ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf;q=0, application/json', 0],
    ['text/html', -1],
  ])('%s -> %s', (accept, expected) => {
    expect(negotiateOpenAPI(accept, produces)).toBe(expected);
  });
});
