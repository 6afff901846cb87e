// The whole suite against a gateway started in this process on a free port, with a temporary data directory.
import { describe } from "vitest";
import { openGateway } from "../src/targets.js";
import { describeTarget } from "./support/suite.js";

describe("gateway", () => {
  describeTarget("gateway", () => openGateway());
});
