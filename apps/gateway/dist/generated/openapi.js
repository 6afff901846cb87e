// Generated from spec/dist/openapi.json (sha256 174e82f05308c9762a134f7b384389a3bac38173928aa81c9e5e8df54e5fb855) by openapi-typescript. Do not edit.
export {};
//# sourceMappingURL=openapi.js.map