/** Hashes a password with scrypt and a random salt: `scrypt$N$r$p$salt$hash` (base64url). */
export declare function hashPassword(password: string): Promise<string>;
/** Checks a password against a stored hash, comparing in constant time. */
export declare function verifyPassword(password: string, stored: string): Promise<boolean>;
/** A hash of a random password, checked against when the user does not exist, so that timing does not tell. */
export declare const decoyHash: Promise<string>;
