import { createBusinessUnit } from "../sandbox/routes.js";
import type { BusinessUnitStore } from "../storage/ports/business-units.js";
import { hashPassword, verifyPassword } from "./passwords.js";

/** The demo login printed at start always works: created when missing, its password reset when it changed. */
export async function ensureDemoUser(
  storage: BusinessUnitStore,
  demoUser: { username: string; password: string } | undefined,
): Promise<void> {
  if (!demoUser) return;
  const existing = await storage.findUser(demoUser.username);
  // Instances starting together on one database race to create it: the loser finds the winner's.
  if (!existing)
    await createBusinessUnit(storage, "Demo business unit", demoUser).catch(async (error: unknown) => {
      if (!(await storage.findUser(demoUser.username))) throw error;
    });
  else if (!(await verifyPassword(demoUser.password, existing.passwordHash))) {
    await storage.setPasswordHash(existing.username, await hashPassword(demoUser.password));
  }
}
