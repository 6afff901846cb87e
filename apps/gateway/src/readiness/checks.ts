import { judgedFromOwnFacts, judgedFromRun, type CheckName, type RunCheck } from "./check.js";
import { checksumAndLength } from "./checksum-and-length.js";
import { deferredOfficialSearch } from "./deferred-official-search.js";
import { downloads } from "./downloads.js";
import { duplicates } from "./duplicates.js";
import { expiredUpload } from "./expired-upload.js";
import { faultsAndCadence } from "./faults-and-cadence.js";
import { lostAnswer } from "./lost-answer.js";
import { nothingLeftBehind } from "./nothing-left-behind.js";
import { paging } from "./paging.js";
import { rateLimits } from "./rate-limits.js";
import { systemError } from "./system-error.js";
import { validationFailed } from "./validation-failed.js";

/**
 * Every readiness check, by the name the spec gives it (`ReadinessCheckName`): a name added to the spec is a type
 * error here until its module exists. The order is the order a run answers them in.
 */
export const CHECKS: { readonly [Name in CheckName]: RunCheck } = {
  duplicates: judgedFromRun(duplicates),
  paging: judgedFromRun(paging),
  "nothing-left-behind": judgedFromOwnFacts(nothingLeftBehind),
  "validation-failed": judgedFromOwnFacts(validationFailed),
  "checksum-and-length": judgedFromRun(checksumAndLength),
  "system-error": judgedFromOwnFacts(systemError),
  "lost-answer": judgedFromOwnFacts(lostAnswer),
  downloads: judgedFromRun(downloads),
  "expired-upload": judgedFromOwnFacts(expiredUpload),
  "rate-limits": judgedFromRun(rateLimits),
  "faults-and-cadence": judgedFromRun(faultsAndCadence),
  "deferred-official-search": judgedFromOwnFacts(deferredOfficialSearch),
};

/** The check names, in the order of CHECKS. */
export const CHECK_NAMES = Object.keys(CHECKS) as CheckName[];
