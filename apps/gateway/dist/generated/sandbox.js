// Generated from spec/dist/sandbox.json (sha256 7fd80c9412aa1df95679060dc52fa2d5e9027e90517bd40f0bd85372b504a5e7) by openapi-typescript. Do not edit.
export {};
//# sourceMappingURL=sandbox.js.map