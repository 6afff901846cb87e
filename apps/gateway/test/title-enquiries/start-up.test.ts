// The gateway as `npm start` runs it (dist/main.js, configured from the environment) serves HTTPS with mutual TLS
// beside plain HTTP: the demo CA, server and client certificates are made in the data directory on first start and
// reused after, and the start banner names them with a curl line that works.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCodeOf } from "../support/conformance.js";
import { basic, DEMO, SANDBOX_TOKEN } from "../support/gateway.js";
import { startGatewayProcess, type GatewayProcess } from "../support/process.js";

const dataDir = mkdtempSync(join(tmpdir(), "lrg-start-"));
const AVAILABILITY = "/s1/v1/titles/ZZ100001/official-copies/availability";
let gateway: GatewayProcess;

interface Banner {
  https: string;
  ca: string;
  clientCert: string;
  clientKey: string;
  curl: string;
}

function bannerOf(output: string): Banner {
  const https = /Mutual TLS:\s+(https:\/\/\S+)/.exec(output)?.[1];
  const ca = /^\s+CA (\S+)$/m.exec(output)?.[1];
  const client = /^\s+client (\S+), key (\S+)$/m.exec(output);
  const curl = /Try it:\s+(curl .+)$/m.exec(output)?.[1];
  if (!https || !ca || !client?.[1] || !client[2] || !curl)
    throw new Error(`the banner does not name the mutual TLS listener: ${output}`);
  return { https, ca, clientCert: client[1], clientKey: client[2], curl };
}

/** One HTTPS request on its own connection, trusting the demo CA, with or without the demo client certificate. */
function get(banner: Banner, path: string, withCertificate: boolean): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, banner.https);
    const req = httpsRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        agent: false,
        ca: readFileSync(banner.ca),
        ...(withCertificate ? { cert: readFileSync(banner.clientCert), key: readFileSync(banner.clientKey) } : {}),
        headers: { authorization: basic(DEMO) },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

const started = () => startGatewayProcess(dataDir, { LRG_HTTPS_PORT: "0" });

beforeAll(async () => {
  gateway = await started();
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm start: HTTPS with mutual TLS beside plain HTTP", () => {
  it("makes the demo CA, server and client certificates in the data directory and prints their paths", () => {
    const banner = bannerOf(gateway.output());
    for (const name of ["ca.crt", "ca.key", "server.crt", "server.key", "client.crt", "client.key"])
      expect(existsSync(join(dataDir, "tls", name)), name).toBe(true);
    expect(banner.ca).toBe(join(dataDir, "tls", "ca.crt"));
    expect(banner.clientCert).toBe(join(dataDir, "tls", "client.crt"));
    expect(banner.curl).toContain(`--cert ${banner.clientCert} --key ${banner.clientKey} --cacert ${banner.ca}`);
  });

  it("answers a title enquiry to a client with the demo certificate, and refuses one without (the registry's BG40005)", async () => {
    const banner = bannerOf(gateway.output());
    const served = await get(banner, AVAILABILITY, true);
    expect(served.status).toBe(200);
    expect(JSON.parse(served.body)).toMatchObject({ data: { title_number: "ZZ100001" } });
    const refused = await get(banner, AVAILABILITY, false);
    expect(refused.status).toBe(403);
    expect(errorCodeOf(JSON.parse(refused.body))).toMatchObject({ code: "BG40005" });
  });

  it("refuses title enquiries over plain HTTP until require_client_certificate is false", async () => {
    const plain = () => fetch(`${gateway.url}${AVAILABILITY}`, { headers: { authorization: basic(DEMO) } });
    expect((await plain()).status).toBe(403);
    const sandbox = (body: unknown) =>
      fetch(`${gateway.url}/sandbox/v1/settings`, {
        method: "PUT",
        headers: { authorization: `Bearer ${SANDBOX_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await sandbox({ require_client_certificate: false })).status).toBe(200);
    try {
      expect((await plain()).status).toBe(200);
    } finally {
      await sandbox({ require_client_certificate: true });
    }
  });

  it.runIf(existsSync("/usr/bin/curl"))("the printed curl line works as it is", async () => {
    const [command, ...args] = bannerOf(gateway.output()).curl.split(" ");
    const { stdout } = await promisify(execFile)(String(command), ["--silent", "--show-error", "--fail", ...args]);
    expect(JSON.parse(stdout)).toMatchObject({ data: { title_number: "ZZ100001" } });
  });

  it("reuses the certificates on the next start", async () => {
    const before = readFileSync(join(dataDir, "tls", "ca.crt"), "utf8");
    await gateway.stop();
    gateway = await started();
    expect(gateway.output()).toContain("(reused;");
    expect(readFileSync(join(dataDir, "tls", "ca.crt"), "utf8")).toBe(before);
    expect((await get(bannerOf(gateway.output()), AVAILABILITY, true)).status).toBe(200);
  }, 60_000);
});
