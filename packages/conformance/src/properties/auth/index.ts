// Properties of authentication: refused credentials, wrong passwords, the sandbox token, business-unit isolation, and
// the failed-login budget.
import type { Property } from "../../property.js";
import { credentialProperties } from "./credentials.js";
import { failedLoginProperties } from "./failed-logins.js";

/** Every property of authentication. */
export const authProperties: Property[] = [...credentialProperties, ...failedLoginProperties];
