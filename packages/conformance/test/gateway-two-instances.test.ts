// The whole suite against two gateway instances on one PostgreSQL database, behind a loopback round-robin
// balancer: each request goes to the other instance than the one before, so every property that writes through
// one instance and reads through the other holds only if nothing the two must share is kept in one process.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "@lrg/gateway";
import { startPostgres, startRoundRobin } from "@lrg/gateway/testing";
import { describe } from "vitest";
import { openGateway } from "../src/targets.js";
import { allProperties } from "../src/properties/index.js";
import { describeTarget } from "./support/suite.js";

// Every property runs here a second time, on a second setup: in `npm test` its own count of runs, at most five (the
// single gateway runs each property's own count beside it); LRG_CONFORMANCE_RUNS sets the count for a longer run.
const AT_MOST_FIVE_RUNS = { maxRuns: 5 };

describe("gateway: two instances on one PostgreSQL behind a round-robin", () => {
  describeTarget(
    "gateway",
    async () => {
      const postgres = await startPostgres();
      const databaseUrl = await postgres.createDatabase();
      const dataDir = await mkdtemp(join(tmpdir(), "lrg-conformance-two-"));
      const sandboxToken = randomBytes(18).toString("base64url");
      const signingSecret = randomBytes(18).toString("base64url");
      const options = { dataDir, databaseUrl, sandboxToken, signingSecret, decisionDelayMs: 50, logger: false };
      const instances = await Promise.all([createServer(options), createServer(options)]);
      const urls = await Promise.all(instances.map((instance) => instance.app.listen({ port: 0, host: "127.0.0.1" })));
      const balancer = await startRoundRobin(urls);
      // The instances are this test's alone: the properties on registry-wide state run too.
      const session = await openGateway({ url: balancer.url, sandboxToken, exclusive: true });
      // Stopped after the session's own clean-up, which puts the day list back through the balancer.
      const close = session.close.bind(session);
      session.close = async () => {
        await close();
        await balancer.close();
        await Promise.all(instances.map((instance) => instance.app.close()));
        await postgres.stop();
        await rm(dataDir, { recursive: true, force: true });
      };
      return session;
    },
    allProperties,
    AT_MOST_FIVE_RUNS,
  );
});
