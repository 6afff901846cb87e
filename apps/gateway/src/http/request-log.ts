import type { FastifyRequest } from "fastify";

/**
 * A request as the access log writes it: the signature of a signed upload or download address is a credential for
 * its document until it expires, so it is never written; the rest of the address is.
 */
export function requestForLog(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: withoutSignature(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** `url` with the value of every `signature` query parameter replaced by `[redacted]`. */
export function withoutSignature(url: string): string {
  return url.replace(/([?&]signature=)[^&#]*/gi, "$1[redacted]");
}
