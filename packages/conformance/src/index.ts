// @lrg/conformance: the properties of the Land Registration Gateway interface, the targets they run against,
// the runner, and the reports. The CLI (`lrg-conformance`) is built from the same pieces.
export * as badInput from "./bad-input/index.js";
export { assertConformant, ConformanceError, violationsOf } from "@lrg/spec/check";
export type { CheckedAnswer } from "./session.js";
export {
  runFuzz,
  describeFuzz,
  type FuzzOptions,
  type FuzzScope,
  type FuzzSummary,
  type Violation,
} from "./fuzz/runner.js";
export {
  HttpClient,
  WireClient,
  type HttpRequest,
  type HttpResponse,
  type TlsFiles,
  type WireAnswer,
  type WireOptions,
  type WireRequest,
} from "./http.js";
export { allProperties } from "./properties/index.js";
export { propertyName, PropertyContext, PropertyFailure, type Property, type RunOptions } from "./property.js";
export { junitXml, summaryTable } from "./report.js";
export { runProperties, runProperty, skipReason, type Outcome, type PropertyResult } from "./runner.js";
export {
  basic,
  Session,
  type Answer,
  type CallOptions,
  type Capability,
  type ControlOptions,
  type ControlScope,
  type Credentials,
  type TargetName,
} from "./session.js";
export {
  MissingTargetPackageError,
  openGateway,
  openMock,
  openRemote,
  remoteOptionsFromEnv,
  startGateway,
  startPrism,
  SUITE_SETTINGS,
  TARGET_CAPABILITIES,
  type GatewayTargetOptions,
  type RemoteTargetOptions,
  type StartedTarget,
} from "./targets.js";
export { readTraceability, renderTraceability, UNTESTED } from "./traceability.js";
