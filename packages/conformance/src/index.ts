// @lrg/conformance: the properties of the Land Registration Gateway interface, the targets they run against,
// the runner, and the reports. The CLI (`lrg-conformance`) is built from the same pieces.
export { assertConformant, ConformanceError, violationsOf } from "@lrg/spec/check";
export type { CheckedAnswer } from "./session.js";
export { HttpClient, type TlsFiles } from "./http.js";
export { allProperties } from "./properties/index.js";
export { propertyName, PropertyContext, PropertyFailure, type Property, type RunOptions } from "./property.js";
export { junitXml, summaryTable } from "./report.js";
export { runProperties, runProperty, skipReason, type Outcome, type PropertyResult } from "./runner.js";
export { basic, Session, type Answer, type CallOptions, type Capability, type Credentials, type TargetName } from "./session.js";
export { MissingTargetPackageError, openGateway, openMock, openRemote, remoteOptionsFromEnv, TARGET_CAPABILITIES, type GatewayTargetOptions, type RemoteTargetOptions } from "./targets.js";
export { readTraceability, renderTraceability, UNTESTED } from "./traceability.js";
