// The suite against Prism serving the bundled spec: the stateless properties run, the others are skipped.
import { describe } from "vitest";
import { openMock } from "../src/targets.js";
import { describeTarget } from "./support/suite.js";

describe("mock", () => {
  describeTarget("mock", () => openMock());
});
