import { problemCatalogue } from "./spec/openapi.js";
/**
 * An error answer. Thrown anywhere in the gateway; the error handler renders it as problem+json. Status and
 * title come from the catalogue, so a code means the same everywhere.
 */
export class Problem extends Error {
    code;
    status;
    title;
    errors;
    rule;
    headers;
    constructor(code, detail, extra = {}) {
        super(detail);
        const entry = problemCatalogue[code];
        if (!entry)
            throw new Error(`problem code ${code} is not in the spec's catalogue`);
        this.code = code;
        this.status = entry.status;
        this.title = entry.title;
        this.errors = extra.errors;
        this.rule = extra.rule;
        this.headers = extra.headers ?? {};
    }
    /** The problem+json body, with `instance` set to the request path. */
    body(instance) {
        return {
            type: `https://land-registration-gateway.example/problems/${this.code}`,
            title: this.title,
            status: this.status,
            detail: this.message,
            instance,
            code: this.code,
            ...(this.rule ? { rule: this.rule } : {}),
            ...(this.errors ? { errors: this.errors.slice(0, 100) } : {}),
        };
    }
}
//# sourceMappingURL=problems.js.map