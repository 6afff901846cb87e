export {};
//# sourceMappingURL=storage.js.map