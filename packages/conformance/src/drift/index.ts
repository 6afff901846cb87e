// Drift: a recording of exchanges (HAR 1.2) judged against the spec and the registry's behaviour rules, with the same
// checkers the gateway and the properties use. `lrg drift` is its command line.
export { builtSpec, drift, specFromFile, type DriftReport, type DriftSpec, type Finding } from "./drift.js";
export { pathParameters, type Side } from "./exchange-checks.js";
export { bytesOf, HarError, queryOf, readHar, REDACTED, textOf, type Exchange, type RecordedBody } from "./har.js";
export {
  findingLine,
  htmlReport,
  jsonReport,
  junitReport,
  reportIn,
  REPORT_FORMATS,
  summaryLine,
  type ReportFormat,
} from "./reports.js";
export { harOf, harRecorder, type HarEntry } from "./har-recorder.js";
