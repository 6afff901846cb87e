import { randomBytes } from "node:crypto";
/** Reads the configuration from the environment (see README); generates what is absent. */
export function configFromEnv(env = process.env) {
    const generated = [];
    const secret = (name) => {
        const value = env[name];
        if (value)
            return value;
        generated.push(name);
        return randomBytes(24).toString("base64url");
    };
    return {
        port: Number(env["PORT"] ?? 8080),
        host: env["HOST"] ?? "127.0.0.1",
        dataDir: env["LRG_DATA_DIR"] ?? "./.data",
        sandboxToken: secret("LRG_SANDBOX_TOKEN"),
        signingSecret: secret("LRG_SIGNING_SECRET"),
        ...(env["LRG_PUBLIC_URL"] ? { publicUrl: env["LRG_PUBLIC_URL"] } : {}),
        demoUser: { username: env["LRG_DEMO_USERNAME"] ?? "demo", password: env["LRG_DEMO_PASSWORD"] ?? "demo-password" },
        decisionDelayMs: Number(env["LRG_DECISION_DELAY_MS"] ?? 2000),
        logger: env["LRG_LOG"] !== "off",
        generated,
    };
}
//# sourceMappingURL=config.js.map