import type { FastifyInstance, FastifyRequest } from 'fastify';

const auditSlot = 'keventsAuditId';
type WithAuditId = FastifyRequest & { [auditSlot]: string };

/** Declares the request slot of the fixed `Audit-Id` (once per app, before {@link setAuditId}). */
export function declareAuditId(app: FastifyInstance): void {
  app.decorateRequest(auditSlot, '');
}

/** Fixes the `Audit-Id` of a request (the tracing filter does, so spans and response agree). */
export function setAuditId(req: FastifyRequest, auditId: string): void {
  (req as WithAuditId)[auditSlot] = auditId;
}

/** The `Audit-Id` fixed for a request (a traced one); undefined when none was. */
export const tracedAuditId = (req: FastifyRequest): string | undefined =>
  (req as Partial<WithAuditId>)[auditSlot] || undefined;
