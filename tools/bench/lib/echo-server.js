// The baseline: a bare fastify server that parses the JSON body and echoes it back with 201.
import Fastify from 'fastify';

const port = Number(process.argv[2]);
const app = Fastify({ logger: false, bodyLimit: 3 * 1024 * 1024 });
app.post('/echo', async (req, reply) =>
  reply.code(201).header('content-type', 'application/json').send(JSON.stringify(req.body)),
);
app.get('/echo', async (_req, reply) => reply.header('content-type', 'application/json').send('{"kind":"Event"}'));
await app.listen({ host: '127.0.0.1', port });
