// Written by scripts/readiness-checks.mjs from the spec's ReadinessCheckName, in its order: do not edit. Each
// check's module is ./<name>.ts, exporting it under the name in camel case; a name added to the spec is a failed
// import here until its module exists.
import { runCheckOf, type CheckName, type RunCheck } from "./check.js";
import { duplicates } from "./duplicates.js";
import { paging } from "./paging.js";
import { nothingLeftBehind } from "./nothing-left-behind.js";
import { validationFailed } from "./validation-failed.js";
import { checksumAndLength } from "./checksum-and-length.js";
import { systemError } from "./system-error.js";
import { lostAnswer } from "./lost-answer.js";
import { downloads } from "./downloads.js";
import { expiredUpload } from "./expired-upload.js";
import { rateLimits } from "./rate-limits.js";
import { faultsAndCadence } from "./faults-and-cadence.js";
import { deferredOfficialSearch } from "./deferred-official-search.js";

/** Every readiness check, by the name the spec gives it, in the order a run answers them in. */
export const CHECKS: { readonly [Name in CheckName]: RunCheck } = {
  duplicates: runCheckOf(duplicates),
  paging: runCheckOf(paging),
  "nothing-left-behind": runCheckOf(nothingLeftBehind),
  "validation-failed": runCheckOf(validationFailed),
  "checksum-and-length": runCheckOf(checksumAndLength),
  "system-error": runCheckOf(systemError),
  "lost-answer": runCheckOf(lostAnswer),
  downloads: runCheckOf(downloads),
  "expired-upload": runCheckOf(expiredUpload),
  "rate-limits": runCheckOf(rateLimits),
  "faults-and-cadence": runCheckOf(faultsAndCadence),
  "deferred-official-search": runCheckOf(deferredOfficialSearch),
};

/** The check names, in the order of CHECKS. */
export const CHECK_NAMES = Object.keys(CHECKS) as CheckName[];
