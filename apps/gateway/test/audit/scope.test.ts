import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { auditScope } from "../../src/audit/scope.js";
import type { ControlActor } from "../../src/auth/control-actor.js";

const unitA = randomUUID();
const unitB = randomUUID();
const admin: ControlActor = { kind: "admin" };
const a: ControlActor = { kind: "unit", businessUnitId: unitA };

describe("whose audit entries a reader gets", () => {
  it.each([
    ["the admin, unfiltered: everything", { reader: admin, asked: {}, want: {} }],
    [
      "the admin, one kind of actor",
      { reader: admin, asked: { actor: "unknown" as const }, want: { actorKind: "unknown" } },
    ],
    ["the admin, one unit's", { reader: admin, asked: { businessUnitId: unitB }, want: { actorUnit: unitB } }],
    [
      "the admin, a unit named in upper case",
      { reader: admin, asked: { businessUnitId: unitB.toUpperCase() }, want: { actorUnit: unitB } },
    ],
    ["a unit, unfiltered: only its own", { reader: a, asked: {}, want: { actorKind: "unit", actorUnit: unitA } }],
    [
      "a unit naming itself",
      {
        reader: a,
        asked: { businessUnitId: unitA, actor: "unit" as const },
        want: { actorKind: "unit", actorUnit: unitA },
      },
    ],
    ["a unit asking for another unit's: nothing", { reader: a, asked: { businessUnitId: unitB }, want: undefined }],
    ["a unit asking for the admin's: nothing", { reader: a, asked: { actor: "admin" as const }, want: undefined }],
    ["a unit asking for the unknown's: nothing", { reader: a, asked: { actor: "unknown" as const }, want: undefined }],
  ])("%s", (_name, { reader, asked, want }) => {
    expect(auditScope(reader, asked)).toEqual(want);
  });
});
