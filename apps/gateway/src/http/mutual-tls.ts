import { constants as tlsConstants } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { ensureDemoCertificates, type DemoCertificates } from "../tls/demo-certificates.js";
import { limitServer, type ConnectionLimits } from "./limits.js";

/** The TLS options of a server whose title enquiries may check a client certificate signed by `clientCa`. */
export function tlsOptions(tls: {
  cert: string;
  key: string;
  clientCa?: string | undefined;
  requireClientCertificate?: boolean | undefined;
}) {
  return {
    cert: readFileSync(tls.cert),
    key: readFileSync(tls.key),
    ...(tls.clientCa
      ? {
          ca: readFileSync(tls.clientCa),
          requestCert: true,
          rejectUnauthorized: tls.requireClientCertificate ?? false,
          // No session resumption: a resumed TLS 1.3 session is reported authorized without the client
          // presenting its certificate again, so every connection must make a full handshake.
          secureOptions: tlsConstants.SSL_OP_NO_TICKET,
          sessionTimeout: 0,
        }
      : {}),
  };
}

/** Starts serving the app's routes over HTTPS with mutual TLS on another port; answers the address and the files. */
export type ListenMutualTls = (options: {
  port: number;
  host: string;
}) => Promise<{ address: string; certificates: DemoCertificates }>;

/**
 * The mutual TLS listeners of an app: they share its routes, with the demo certificates of the data directory (made
 * on first use) as the server certificate and the client CA, and stop taking connections with the main listener.
 * `closed` answers once every one of them has closed.
 */
export function mutualTlsListeners(
  app: FastifyInstance,
  dataDir: string,
  limits: ConnectionLimits,
): { listen: ListenMutualTls; closed: () => Promise<void> } {
  const servers: HttpsServer[] = [];
  const closing: Promise<void>[] = [];
  app.addHook("preClose", async () => {
    for (const server of servers) {
      closing.push(new Promise((resolve) => server.close(() => resolve())));
      server.closeIdleConnections();
    }
  });
  const listen: ListenMutualTls = async ({ port, host }) => {
    const certificates = await ensureDemoCertificates(dataDir, [host]);
    await app.ready();
    const server = createHttpsServer(
      tlsOptions({ cert: certificates.serverCert, key: certificates.serverKey, clientCa: certificates.caCert }),
      (req, res) => app.routing(req, res),
    );
    server.on("clientError", (_error, socket) => socket.destroy());
    limitServer(server, limits);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => resolve());
    });
    servers.push(server);
    const bound = server.address() as AddressInfo;
    const hostname = bound.family === "IPv6" ? `[${bound.address}]` : bound.address;
    return { address: `https://${hostname}:${bound.port}`, certificates };
  };
  return { listen, closed: async () => void (await Promise.all(closing)) };
}
