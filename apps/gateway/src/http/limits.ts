import type { IncomingMessage, Server } from "node:http";

/** How long a client may take, and how many connections it may hold; each has a variable (see `configFromEnv`). */
export interface ConnectionLimits {
  /** From the connection's first byte to the end of the request headers. */
  headersTimeoutMs: number;
  /** From the end of the headers to the end of a JSON body (uploads have their own pace, see `requestTimeoutMs`). */
  bodyTimeoutMs: number;
  /** The whole request, an upload's 40 MiB included, from its first byte to its last. */
  requestTimeoutMs: number;
  /** Connections open at once; further ones are closed as they arrive. */
  maxConnections: number;
}

/**
 * The defaults: a JSON body of at most 1 MiB arrives in 10 s on any working link, an upload of 40 MiB in 5 minutes at
 * 1.1 Mbit/s; 2,000 connections are far more than any integration keeps open, and far fewer than the open files
 * a process is allowed.
 */
export const DEFAULT_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
  requestTimeoutMs: 300_000,
  maxConnections: 2_000,
};

/** Node checks its header and request deadlines this often (its default, 30 s, would let them run late by that). */
export const DEADLINE_CHECK_INTERVAL_MS = 1_000;

/** Puts the limits on a listening server (the main listener, and the mutual TLS one). */
export function limitServer(server: Server, limits: ConnectionLimits): void {
  server.headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  server.requestTimeout = limits.requestTimeoutMs;
  server.maxConnections = limits.maxConnections;
}

/**
 * Closes the connection of a request whose body has not arrived `timeoutMs` after its credentials were accepted: a
 * client that sends a JSON body slowly holds a connection and a parser for nothing. A request without a body is left
 * alone.
 */
export function bodyDeadline(request: IncomingMessage, timeoutMs: number): void {
  const hasBody = request.headers["content-length"] !== undefined || request.headers["transfer-encoding"] !== undefined;
  if (!hasBody || request.complete) return;
  const timer = setTimeout(() => request.socket.destroy(), timeoutMs);
  timer.unref();
  const settle = () => clearTimeout(timer);
  request.once("end", settle);
  request.once("close", settle);
}

/**
 * The most of a body refused for its size (413) that is read and discarded before the answer: bodies up to this size
 * get their answer whole; a larger one declared is answered at once and its connection closed under it.
 */
export const MAX_DISCARDED_BODY_BYTES = 64 * 1024 * 1024;

/**
 * Reads what is left of `request`'s body and throws it away, chunk by chunk (nothing is kept), so that an answer given
 * before the body arrived can close the connection after it without resetting a client that is still sending: a
 * socket closed with unread bytes answers them with a reset (RST), and the client meets EPIPE or ECONNRESET, often
 * before it has read the answer. Resolves true once the body has ended; false at once when its declared length is
 * over `limit`, or as soon as more than `limit` bytes arrived, or when the connection closed first (the body
 * deadline, `bodyDeadline`, bounds the wait).
 */
export function discardBody(request: IncomingMessage, limit: number): Promise<boolean> {
  if (request.complete) return Promise.resolve(true);
  if (request.destroyed || Number(request.headers["content-length"]) > limit) return Promise.resolve(false);
  return new Promise((resolve) => {
    let received = 0;
    const settle = (ended: boolean) => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("close", onClose);
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) settle(false);
    };
    const onEnd = () => settle(true);
    const onClose = () => settle(request.complete);
    request.on("data", onData);
    request.once("end", onEnd);
    request.once("close", onClose);
    request.resume();
  });
}
