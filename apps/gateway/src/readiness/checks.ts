import type { CheckName, ReadinessCheck } from "./check.js";
import { checksumAndLength } from "./checksum-and-length.js";
import { downloads } from "./downloads.js";
import { duplicates } from "./duplicates.js";
import { lostAnswer } from "./lost-answer.js";
import { expiredUpload } from "./expired-upload.js";
import { nothingLeftBehind } from "./nothing-left-behind.js";
import { paging } from "./paging.js";
import { systemError } from "./system-error.js";
import { validationFailed } from "./validation-failed.js";

/**
 * Every readiness check, by the name the spec gives it (`ReadinessCheckName`): a name added to the spec is a type
 * error here until its module exists. The order is the order a run answers them in.
 */
export const CHECKS: { readonly [Name in CheckName]: ReadinessCheck } = {
  duplicates,
  paging,
  "nothing-left-behind": nothingLeftBehind,
  "validation-failed": validationFailed,
  "checksum-and-length": checksumAndLength,
  "system-error": systemError,
  "lost-answer": lostAnswer,
  downloads,
  "expired-upload": expiredUpload,
};

/** The check names, in the order of CHECKS. */
export const CHECK_NAMES = Object.keys(CHECKS) as CheckName[];
