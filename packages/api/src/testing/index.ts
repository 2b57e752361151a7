/**
 * `@kevents/api/testing`: the test kit every package and app may import (the api package is the lowest
 * layer): polling, free ports and test certificates. The certificates need selfsigned (an optional peer,
 * loaded on first use); the rest needs nothing.
 */
export { waitFor, waitForValue } from './wait-for.js';
export type { WaitForOptions } from './wait-for.js';
export { freePort } from './free-port.js';
export { generateCA, generateClientCert, generateLeaf, generateServingCert } from './certificates.js';
export type { KeyPair } from './certificates.js';
