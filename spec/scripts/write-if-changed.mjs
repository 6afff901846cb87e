// How the generators write the committed files they own. `build` runs them while other tasks of the same turbo run
// (check, check:generated) may read those files: a file whose text is already right is left alone, and a
// changed one is replaced whole (written beside it, then renamed over it), so that no reader ever sees half a file.
import { readFileSync, renameSync, writeFileSync } from "node:fs";

/** Writes `text` to `path` unless it holds that text already; answers whether it wrote. */
export function writeIfChanged(path, text) {
  let current;
  try {
    current = readFileSync(path, "utf8");
  } catch {
    current = undefined;
  }
  if (current === text) return false;
  const beside = `${path}.${process.pid}.tmp`;
  writeFileSync(beside, text);
  renameSync(beside, path);
  return true;
}
