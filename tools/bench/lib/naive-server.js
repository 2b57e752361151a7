// A second baseline for creates: a naive in-memory Events server on fastify. It parses the body,
// gives the object a name, uid, resourceVersion and creationTimestamp, keeps its JSON text in a
// Map and answers 201 with it: no content negotiation, no decoding beyond JSON.parse, no
// validation, no conversion between versions, no watch history, no indexes, no filters. What a
// Node server that stores and answers an Event costs at the least; kevents is compared with it to
// tell its own pipeline from the cost of HTTP on this machine.
import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';

const port = Number(process.argv[2]);
const app = Fastify({ logger: false, bodyLimit: 3 * 1024 * 1024 });
const objects = new Map();
let resourceVersion = 1;
let generated = 0;
app.post('/apis/events.k8s.io/v1/namespaces/:namespace/events', async (req, reply) => {
  const obj = req.body;
  const meta = obj.metadata;
  meta.name ??= `${meta.generateName}${(generated++).toString(36)}`;
  meta.namespace = req.params.namespace;
  meta.uid = randomUUID();
  meta.resourceVersion = String(++resourceVersion);
  meta.creationTimestamp = new Date().toISOString().slice(0, 19) + 'Z';
  const text = JSON.stringify(obj);
  objects.set(`${meta.namespace}/${meta.name}`, text);
  return reply.code(201).header('content-type', 'application/json').send(text);
});
app.get('/readyz', async () => 'ok');
await app.listen({ host: '127.0.0.1', port });
