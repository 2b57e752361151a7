// A bare fastify echo server: the HTTP baseline of tools/bench/redis.js. Prints its port.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/echo', async (req, reply) => reply.code(201).send(req.body));
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${app.server.address().port}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
