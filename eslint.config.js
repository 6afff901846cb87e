// The one lint setup of the workspace. Packages run `eslint .` and ESLint finds this file.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** The files the type-aware rules read types for (`lrg-check` gives them its program instead of the project service). */
export const TYPE_AWARE_FILES = ["**/src/**/*.ts", "**/test/**/*.ts"];

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "**/generated/**",
      "**/.turbo/**",
      "**/test-output/**",
      "**/dist-ts/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: "readonly", console: "readonly", URL: "readonly", Buffer: "readonly" },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Type-aware rules: each package's tsconfig.json gives the types (the project service finds it). They catch
    // what the compiler lets through: a promise nobody awaits or handles, a promise where a callback's result is
    // ignored, an await of something that is not a promise, a cast that changes nothing, a throw of a non-Error.
    files: TYPE_AWARE_FILES,
    languageOptions: { parserOptions: { projectService: true } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/no-unnecessary-type-assertion": "error",
      "@typescript-eslint/only-throw-error": "error",
      "@typescript-eslint/prefer-promise-reject-errors": "error",
    },
  },
);
