import { describe, expect, it } from '@jest/globals';
import Fastify from 'fastify';
import { declareAuditId, setAuditId, tracedAuditId } from './audit-id.js';

describe('the Audit-Id slot of a request', () => {
  it('is empty until the tracing filter fixes it, and answers the fixed id after', async () => {
    const app = Fastify();
    declareAuditId(app);
    const seen: (string | undefined)[] = [];
    app.get('/', (req, reply) => {
      seen.push(tracedAuditId(req));
      setAuditId(req, 'a1b2');
      seen.push(tracedAuditId(req));
      setAuditId(req, '');
      seen.push(tracedAuditId(req));
      return reply.send('ok');
    });
    expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
    expect(seen).toEqual([undefined, 'a1b2', undefined]);
    await app.close();
  });
});
